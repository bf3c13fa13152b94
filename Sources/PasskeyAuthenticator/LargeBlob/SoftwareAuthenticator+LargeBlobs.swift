public import WebAuthn

extension SoftwareAuthenticator {
    /// The hmac-secret salt a credential's `largeBlobKey` is derived with.
    private static let largeBlobKeySalt = SHA256Digest.hash(Array("SoftPasskey largeBlobKey".utf8))

    /// A credential's `largeBlobKey` (CTAP 2.1 §12.3): `HMAC-SHA-256(CredRandomWithUV,
    /// SHA-256("SoftPasskey largeBlobKey"))`, computed by the store from the credential's sealed
    /// hmac-secret seed, so it is stable, secret and kept by no extra field; `nil` for a
    /// credential without seeds, or when the profile has no `largeBlobKey`.
    public func largeBlobKey(of stored: StoredCredential) async throws(AuthenticatorError) -> SecretKey? {
        guard profile.supports("largeBlobKey") else {
            return nil
        }
        let outputs = try await storing { () async throws(StoreError) in
            try await store.hmacSecret([Self.largeBlobKeySalt], with: stored, userVerified: true)
        }
        return outputs?.first.flatMap { try? SecretKey(bytes: $0) }
    }

    /// The serialized large-blob array from the store, or the empty one when none was written.
    public func largeBlobs() async throws(AuthenticatorError) -> [UInt8] {
        let store = try largeBlobStore()
        let serialized = try await storing { () async throws(StoreError) in
            try await store.serializedLargeBlobArray()
        }
        return serialized.isEmpty ? LargeBlobArray.empty.serialized : serialized
    }

    /// Checks the array's size and hash (CTAP 2.1 §6.10.2) and has the store keep it.
    public func setLargeBlobs(_ serialized: [UInt8]) async throws(AuthenticatorError) {
        let store = try largeBlobStore()
        guard serialized.count <= profile.maxSerializedLargeBlobArray else {
            throw AuthenticatorError(
                .largeBlobStorageFull,
                "the large-blob array is \(serialized.count) bytes; this authenticator keeps "
                    + "\(profile.maxSerializedLargeBlobArray)")
        }
        do {
            _ = try LargeBlobArray(serialized: serialized)
        } catch {
            throw AuthenticatorError(.integrityFailure, "the large-blob array is not intact: \(error.reason)")
        }
        try await storing { () async throws(StoreError) in try await store.setSerializedLargeBlobArray(serialized) }
    }

    /// A credential's large blob, as a client's `largeBlob.read` finds it; `nil` when it has none
    /// or the array is damaged (CTAP 2.1 §6.10.3 reads a damaged array as empty).
    ///
    /// - Parameter stored: a credential of this authenticator's store.
    /// - Throws: ``AuthenticatorError`` with `CTAP2_ERR_UNSUPPORTED_OPTION` without large blobs.
    public func largeBlob(of stored: StoredCredential) async throws(AuthenticatorError) -> [UInt8]? {
        guard let key = try await largeBlobKey(of: stored) else {
            return nil
        }
        return try await largeBlob(key: key)
    }

    /// Stores a credential's large blob, as a client's `largeBlob.write` does, replacing the one it
    /// had (the W3C WebDriver Add Credential's `largeBlob`, WebAuthn L3 §11.4).
    ///
    /// - Parameters:
    ///   - blob: the blob.
    ///   - stored: a credential of this authenticator's store.
    /// - Throws: ``AuthenticatorError`` with `CTAP2_ERR_LARGE_BLOB_STORAGE_FULL` when the array
    ///   would exceed the limit (nothing is written), `CTAP2_ERR_UNSUPPORTED_OPTION` without large
    ///   blobs or for a credential without a key.
    public func setLargeBlob(_ blob: [UInt8], of stored: StoredCredential) async throws(AuthenticatorError) {
        guard let key = try await largeBlobKey(of: stored) else {
            throw AuthenticatorError(
                .unsupportedOption, "credential \(Base64URL.encode(stored.id)) has no largeBlobKey")
        }
        try await setLargeBlob(blob, key: key)
    }

    private func largeBlobStore() throws(AuthenticatorError) -> any LargeBlobStore {
        guard profile.supports("largeBlobKey"), let store = store as? any LargeBlobStore else {
            throw AuthenticatorError(.unsupportedOption, "profile \(profile.name) keeps no large blobs")
        }
        return store
    }
}
