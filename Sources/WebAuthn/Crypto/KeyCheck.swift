/// What proves a key right without holding it: a constant sealed under the key (AES-256-GCM),
/// bound as associated data to what the key is for.
///
/// Only the key that sealed a check opens it, so a wrong passphrase, or a key file swapped for
/// another, is refused before the key touches anything it protects; and a check made for one
/// use does not pass for another. The sealed check is not secret.
package struct KeyCheck: Sendable {
    /// The constant sealed: which library made the check.
    private let plaintext: [UInt8]
    /// What the key is for, bound as associated data.
    private let context: [UInt8]

    /// A check of `plaintext` for keys used for `use`.
    ///
    /// - Parameters:
    ///   - plaintext: the constant sealed, the same for every check a library makes.
    ///   - use: what the key is for (a file's name, a storage key).
    package init(_ plaintext: String, use: String) {
        self.plaintext = Array(plaintext.utf8)
        self.context = Array(use.utf8)
    }

    /// The check sealed under `key`.
    ///
    /// - Throws: `WebAuthnError` when OpenSSL fails.
    package func seal(under key: SecretKey) throws(WebAuthnError) -> Base64URL {
        Base64URL(try AESGCM.seal(plaintext, using: key, authenticating: context))
    }

    /// Whether `sealed` is this check sealed under `key`.
    package func isOpened(_ sealed: Base64URL, by key: SecretKey) -> Bool {
        (try? AESGCM.open(sealed.bytes, using: key, authenticating: context)) == plaintext
    }
}
