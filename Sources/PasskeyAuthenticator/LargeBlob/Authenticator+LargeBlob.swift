public import WebAuthn

extension Authenticator {
    /// The blob of the credential whose `largeBlobKey` is `key`, read from the authenticator's
    /// large-blob array (WebAuthn L3 §10.1.5 `read`); `nil` when it has none. A damaged array
    /// reads as empty (CTAP 2.1 §6.10.3).
    ///
    /// - Parameter key: the credential's `largeBlobKey`.
    /// - Throws: ``AuthenticatorError`` when the authenticator keeps no large blobs.
    public func largeBlob(key: SecretKey) async throws(AuthenticatorError) -> [UInt8]? {
        let array = try await storedLargeBlobArray()
        return try? array.blob(key: key)
    }

    /// Stores the blob of the credential whose `largeBlobKey` is `key`, replacing the one it had
    /// (WebAuthn L3 §10.1.5 `write`): the array is read, changed and written whole.
    ///
    /// - Parameters:
    ///   - blob: the blob.
    ///   - key: the credential's `largeBlobKey`.
    /// - Throws: ``AuthenticatorError`` with `CTAP2_ERR_LARGE_BLOB_STORAGE_FULL` when the array
    ///   would be longer than ``AuthenticatorInfo/maxSerializedLargeBlobArray`` (nothing is
    ///   written), or another status of the authenticator.
    public func setLargeBlob(_ blob: [UInt8], key: SecretKey) async throws(AuthenticatorError) {
        var array = try await storedLargeBlobArray()
        do {
            try array.set(blob, key: key)
        } catch {
            throw AuthenticatorError(.other, "could not seal the large blob: \(error.reason)")
        }
        let serialized = array.serialized
        let limit = info.maxSerializedLargeBlobArray ?? 0
        guard serialized.count <= limit else {
            throw AuthenticatorError(
                .largeBlobStorageFull, "the large-blob array would be \(serialized.count) bytes; the limit is \(limit)")
        }
        try await setLargeBlobs(serialized)
    }

    /// The authenticator's array, or the empty one when it is damaged.
    private func storedLargeBlobArray() async throws(AuthenticatorError) -> LargeBlobArray {
        let serialized = try await largeBlobs()
        return (try? LargeBlobArray(serialized: serialized)) ?? .empty
    }
}
