package import WebAuthn

/// What a new credential is made of: its ID, its key pair and its two hmac-secret seeds
/// (CTAP 2.1 §12.5 `CredRandomWithUV`, `CredRandomWithoutUV`). Drawn at random, derived from a
/// ``Seed``, or, in tests that reproduce published vectors, given.
package struct KeyMaterial: Sendable {
    package let credentialID: [UInt8]
    package let privateKey: SigningKey
    package let prfSecretWithUV: SymmetricKey
    package let prfSecretWithoutUV: SymmetricKey

    package init(
        credentialID: [UInt8], privateKey: SigningKey, prfSecretWithUV: SymmetricKey, prfSecretWithoutUV: SymmetricKey
    ) {
        self.credentialID = credentialID
        self.privateKey = privateKey
        self.prfSecretWithUV = prfSecretWithUV
        self.prfSecretWithoutUV = prfSecretWithoutUV
    }

    /// Fresh random material (a 16-byte ID, as platform authenticators use).
    static func random(_ algorithm: COSEAlgorithm) throws(WebAuthnError) -> KeyMaterial {
        KeyMaterial(
            credentialID: SecureRandom.bytes(16), privateKey: try SigningKey.generate(algorithm),
            prfSecretWithUV: .random(), prfSecretWithoutUV: .random())
    }
}
