package import WebAuthn

/// What a new credential is made of: its ID, its key pair and its two hmac-secret seeds
/// (CTAP 2.1 §12.5 `CredRandomWithUV`, `CredRandomWithoutUV`). Drawn at random, derived from a
/// ``Seed``, or, in tests that reproduce published vectors, given.
package struct KeyMaterial: Sendable {
    package let credentialID: [UInt8]
    package let privateKey: SigningKey
    package let prfSecretWithUV: SecretKey
    package let prfSecretWithoutUV: SecretKey

    package init(
        credentialID: [UInt8], privateKey: SigningKey, prfSecretWithUV: SecretKey, prfSecretWithoutUV: SecretKey
    ) {
        self.credentialID = credentialID
        self.privateKey = privateKey
        self.prfSecretWithUV = prfSecretWithUV
        self.prfSecretWithoutUV = prfSecretWithoutUV
    }

    /// The secrets, as a store takes them in (``CredentialKeyRequest/importing``).
    var secrets: CredentialSecrets {
        CredentialSecrets(privateKey: privateKey, prfSeedWithUV: prfSecretWithUV, prfSeedWithoutUV: prfSecretWithoutUV)
    }
}
