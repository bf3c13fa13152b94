import WebAuthn

extension KeyCheck {
    /// The check of a key this library derives from a passphrase, for `use`: a passphrase
    /// storage's `.sealing` file (``FileCredentialsStorage``), or a session's passphrase
    /// requirement (``CredentialsManager/requirePassphrase(_:)``).
    ///
    /// - Parameter use: what the key is for, bound to the check.
    static func credentials(_ use: String) -> KeyCheck {
        KeyCheck("Auth0Passkeys key check", use: use)
    }
}
