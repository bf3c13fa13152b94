import WebAuthn

/// A key derived from a passphrase (scrypt, RFC 7914), and what tells a later passphrase right
/// from wrong without any other secret: a constant sealed under the key (AES-256-GCM) and bound
/// to what the key is for. Not secret; kept as JSON `{ "version": 1, "scrypt": …, "keyCheck": … }`
/// in a passphrase storage's `.sealing` file and in a session's passphrase requirement.
struct PassphraseVerifier: Codable {
    var version: Int
    var scrypt: ScryptParameters
    var keyCheck: Base64URL

    private static let checkPlaintext = Array("Auth0Passkeys key check".utf8)

    /// Fresh parameters for `passphrase`, and its key.
    ///
    /// - Parameter use: what the key is for, bound to the check.
    /// - Throws: `WebAuthnError` when scrypt or OpenSSL fails.
    static func make(_ passphrase: Passphrase, use: String) throws(WebAuthnError) -> (Self, SecretKey) {
        let scrypt = ScryptParameters.fresh()
        let key = try scrypt.key(for: passphrase)
        let check = try AESGCM.seal(checkPlaintext, using: key, authenticating: Array(use.utf8))
        return (PassphraseVerifier(version: 1, scrypt: scrypt, keyCheck: Base64URL(check)), key)
    }

    /// Whether it was read whole: the version this library writes, and a cost within bounds.
    var isReasonable: Bool { version == 1 && scrypt.isReasonable }

    /// The key of `passphrase`, or `nil` when it is not the passphrase this verifier was made for.
    ///
    /// - Parameter use: what the key is for, as given to ``make(_:use:)``.
    /// - Throws: `WebAuthnError` when scrypt fails.
    func key(_ passphrase: Passphrase, use: String) throws(WebAuthnError) -> SecretKey? {
        let key = try scrypt.key(for: passphrase)
        return (try? AESGCM.open(keyCheck.bytes, using: key, authenticating: Array(use.utf8))) == nil ? nil : key
    }
}
