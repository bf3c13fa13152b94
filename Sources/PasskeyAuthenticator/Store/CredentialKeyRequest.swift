public import WebAuthn

/// What an authenticator asks of a ``CredentialStore`` when it makes a credential: a key pair
/// for `algorithm` and the two hmac-secret seeds (CTAP 2.1 §12.5 `CredRandomWithUV`,
/// `CredRandomWithoutUV`), kept in the store's custody and bound to the credential ID and RP ID.
///
/// Usually the store makes the secrets itself (a store over an HSM generates them inside the
/// token, where they stay). In seeded mode, and in tests that reproduce published vectors, the
/// authenticator brings them in ``importing``; a store that cannot take a key in refuses with
/// `StoreError.Code.unsupported`.
public struct CredentialKeyRequest: Sendable {
    /// The new credential's ID.
    public let credentialID: [UInt8]
    /// The relying party the credential is scoped to.
    public let rpID: String
    /// The algorithm the credential will sign with.
    public let algorithm: COSEAlgorithm
    /// The secrets to take in rather than make; `nil` asks the store to make them.
    public let importing: CredentialSecrets?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - credentialID: the new credential's ID.
    ///   - rpID: the relying party ID.
    ///   - algorithm: the signature algorithm.
    ///   - importing: secrets to take in, or `nil` for the store to make them.
    public init(credentialID: [UInt8], rpID: String, algorithm: COSEAlgorithm, importing: CredentialSecrets? = nil) {
        self.credentialID = credentialID
        self.rpID = rpID
        self.algorithm = algorithm
        self.importing = importing
    }
}

/// The secrets of one credential in the clear: its private key and its two hmac-secret seeds
/// (CTAP 2.1 §12.5). They exist in memory only on the way into a store that takes them in; the
/// description and mirror show nothing (STYLE §5).
public struct CredentialSecrets: Sendable, CustomStringConvertible, CustomReflectable {
    /// The private key.
    public let privateKey: SigningKey
    /// `CredRandomWithUV`: the hmac-secret seed of requests that verified the user.
    public let prfSeedWithUV: SecretKey
    /// `CredRandomWithoutUV`: the seed of the other requests.
    public let prfSeedWithoutUV: SecretKey

    /// Wraps a credential's secrets.
    ///
    /// - Parameters:
    ///   - privateKey: the private key.
    ///   - prfSeedWithUV: the seed for user-verified requests.
    ///   - prfSeedWithoutUV: the seed for the others.
    public init(privateKey: SigningKey, prfSeedWithUV: SecretKey, prfSeedWithoutUV: SecretKey) {
        self.privateKey = privateKey
        self.prfSeedWithUV = prfSeedWithUV
        self.prfSeedWithoutUV = prfSeedWithoutUV
    }

    /// Fresh random secrets for `algorithm`.
    ///
    /// - Throws: `WebAuthnError` when OpenSSL cannot make the key.
    public static func random(_ algorithm: COSEAlgorithm) throws(WebAuthnError) -> CredentialSecrets {
        CredentialSecrets(privateKey: try .generate(algorithm), prfSeedWithUV: .random(), prfSeedWithoutUV: .random())
    }

    public var description: String { "CredentialSecrets(\(privateKey.algorithm), <redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
