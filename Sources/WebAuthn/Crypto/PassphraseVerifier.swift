/// A key derived from a passphrase (scrypt, RFC 7914), and what tells a later passphrase right
/// from wrong without any other secret: a ``KeyCheck`` sealed under the key.
///
/// Not secret. Kept as JSON in a passphrase session storage's `.sealing` file and in a
/// session's passphrase requirement (Auth0Passkeys); a passphrase credential store keeps the
/// same two members in its `store.json` (PasskeyAuthenticator).
///
/// ```
/// { "version": 1, "scrypt": ScryptParameters, "keyCheck": base64url(KeyCheck sealed under the key) }
/// ```
package struct PassphraseVerifier: Codable, Sendable {
    /// The layout's version: 1.
    package var version: Int
    /// How the key is derived.
    package var scrypt: ScryptParameters
    /// The check sealed under the key.
    package var keyCheck: Base64URL

    /// A verifier as read.
    package init(scrypt: ScryptParameters, keyCheck: Base64URL) {
        self.version = 1
        self.scrypt = scrypt
        self.keyCheck = keyCheck
    }

    /// Fresh parameters for `passphrase`, and its key.
    ///
    /// - Parameter check: the check sealed under the key: the library's constant and the key's use.
    /// - Throws: `WebAuthnError` when scrypt or OpenSSL fails.
    package static func make(_ passphrase: Passphrase, checkedBy check: KeyCheck) throws(WebAuthnError)
        -> (Self, SecretKey)
    {
        let scrypt = ScryptParameters.fresh()
        let key = try scrypt.key(for: passphrase)
        return (PassphraseVerifier(scrypt: scrypt, keyCheck: try check.seal(under: key)), key)
    }

    /// Whether it was read whole: the version this library writes, and a cost within bounds, so
    /// that a tampered file cannot make deriving the key take gigabytes or minutes.
    package var isReasonable: Bool { version == 1 && scrypt.isReasonable }

    /// The key of `passphrase`, or `nil` when it is not the passphrase this verifier was made for.
    ///
    /// - Parameter check: the check given to ``make(_:checkedBy:)``.
    /// - Throws: `WebAuthnError` when scrypt fails.
    package func key(_ passphrase: Passphrase, checkedBy check: KeyCheck) throws(WebAuthnError) -> SecretKey? {
        let key = try scrypt.key(for: passphrase)
        return check.isOpened(keyCheck, by: key) ? key : nil
    }
}
