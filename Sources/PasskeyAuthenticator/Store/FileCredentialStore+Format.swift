import FoundationEssentials
import WebAuthn

extension FileCredentialStore {
    /// The format version this library writes and reads.
    static let formatVersion = 1

    /// `store.json`: how the store key is obtained and a value that proves it right.
    ///
    /// ```
    /// { "version": 1,
    ///   "keySource": "scrypt" | "keyfile",
    ///   "scrypt": { "salt": base64url, "n": 32768, "r": 8, "p": 1 },    (keySource "scrypt" only)
    ///   "keyCheck": base64url(AESGCM.seal(keyCheck's constant, storeKey, "store.json")),
    ///   "custody": "pkcs11:LABEL" }                                   (only with a ``CredentialKeyCustody``)
    /// ```
    ///
    /// A passphrase store's `scrypt` and `keyCheck` are a `PassphraseVerifier`, the one the
    /// session storage keeps, with the store's ``keyCheck``; a key-file store's `keyCheck` is
    /// that check sealed under the key of `store.key`. The layout is unchanged from the first
    /// version, so stores written before the verifier was shared open as they are.
    struct Header: Codable {
        var version: Int
        var keySource: KeySource
        var scrypt: ScryptParameters?
        var keyCheck: Base64URL
        var custody: String?

        /// A passphrase store's verifier: its scrypt parameters and its key check.
        var passphraseVerifier: PassphraseVerifier? {
            scrypt.map { PassphraseVerifier(scrypt: $0, keyCheck: keyCheck) }
        }
    }

    enum KeySource: String, Codable {
        /// The key is derived from the passphrase with scrypt (RFC 7914).
        case scrypt
        /// The key is the 32 bytes of `store.key`.
        case keyFile = "keyfile"
    }

    /// What proves the store key right: the store's constant sealed under it, bound to `store.json`.
    static let keyCheck = KeyCheck("SoftPasskey store key check", use: "store.json")

    /// Only the version of a `store.json` or credential file, read first so a newer format is
    /// reported as such rather than as corrupt.
    struct VersionProbe: Decodable {
        var version: Int
    }

    /// `credentials/<base64url(id)>.json`: `{ "version": 1, "credential": StoredCredential }`.
    struct CredentialFile: Codable {
        var version: Int
        var credential: StoredCredential
    }

    /// A JSON decoding failure in words, without the values that failed (they may be sealed bytes).
    static func describe(_ error: any Error) -> String {
        let context: DecodingError.Context
        switch error as? DecodingError {
        case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c):
            context = c
        default:
            return "not valid JSON"
        }
        var path = context.codingPath.map(\.stringValue).joined(separator: ".")
        if case .keyNotFound(let key, _) = error as? DecodingError {
            path += path.isEmpty ? key.stringValue : "." + key.stringValue
            return "member \"\(path)\" is missing"
        }
        return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    }
}
