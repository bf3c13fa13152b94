import FoundationEssentials
public import WebAuthn

/// What a ``FileCredentialsStorage`` seals its entries under: AES-256-GCM with a key from a key
/// file, or from a passphrase.
public enum CredentialsSealing: Sendable {
    /// A random 256-bit key in a file of its own (mode 0600, in a 0700 directory), made on the
    /// first write. Keep it apart from the entries: a copy of their directory, or a backup of it,
    /// then opens nothing.
    case keyFile(String)
    /// A key scrypt derives from a passphrase (RFC 7914; `ScryptParameters.fresh()`: N = 2^15, r = 8, p = 1), its salt
    /// and a key check in the directory's `.sealing` file.
    case passphrase(Passphrase)

    /// `$XDG_CONFIG_HOME/auth0-passkeys/storage.key`, else `$HOME/.config/auth0-passkeys/storage.key`:
    /// among the user's settings, apart from the entries under the data directory.
    public static var defaultKeyFile: String {
        let environment = ProcessInfo.processInfo.environment
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/auth0-passkeys/storage.key"
        }
        return (environment["HOME"] ?? ".") + "/.config/auth0-passkeys/storage.key"
    }
}
