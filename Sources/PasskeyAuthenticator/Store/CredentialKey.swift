public import WebAuthn

/// A new credential's key as a ``CredentialStore`` keeps it: the public key, which goes into
/// the attestation, and blobs that only that store can use.
///
/// A blob is whatever the store needs to find and use the secret again: for the software stores,
/// the secret itself sealed with AES-256-GCM under the store key; for a store whose keys live in
/// an HSM or TPM, a reference to the object there (its `CKA_ID`, a wrapped key). The blobs go
/// into the ``StoredCredential`` and back to the store with every ``CredentialStore/sign(_:with:)``.
public struct CredentialKey: Sendable, Hashable {
    /// The algorithm the key signs with.
    public let algorithm: COSEAlgorithm
    /// The public key.
    public let publicKey: COSEKey
    /// The private key's blob.
    public let privateKeyBlob: [UInt8]
    /// The blob of `CredRandomWithUV` (CTAP 2.1 §12.5), or `nil` when the store keeps no
    /// hmac-secret seeds.
    public let prfSeedBlobWithUV: [UInt8]?
    /// The blob of `CredRandomWithoutUV`, or `nil`.
    public let prfSeedBlobWithoutUV: [UInt8]?

    /// Describes a key a store made or took in.
    ///
    /// - Parameters:
    ///   - algorithm: the algorithm the key signs with.
    ///   - publicKey: the public key.
    ///   - privateKeyBlob: the private key's blob.
    ///   - prfSeedBlobWithUV: the blob of the user-verified hmac-secret seed, if any.
    ///   - prfSeedBlobWithoutUV: the blob of the other seed, if any.
    public init(
        algorithm: COSEAlgorithm, publicKey: COSEKey, privateKeyBlob: [UInt8], prfSeedBlobWithUV: [UInt8]? = nil,
        prfSeedBlobWithoutUV: [UInt8]? = nil
    ) {
        self.algorithm = algorithm
        self.publicKey = publicKey
        self.privateKeyBlob = privateKeyBlob
        self.prfSeedBlobWithUV = prfSeedBlobWithUV
        self.prfSeedBlobWithoutUV = prfSeedBlobWithoutUV
    }
}
