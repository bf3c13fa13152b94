/// A store that keeps an authenticator's serialized large-blob array (CTAP 2.1 §6.10) besides
/// its credentials. The array holds only ciphertext, under keys the credentials derive.
public protocol LargeBlobStore: CredentialStore {
    /// The serialized array as last written; empty when none was.
    ///
    /// - Throws: `StoreError` when it cannot be read.
    func serializedLargeBlobArray() async throws(StoreError) -> [UInt8]

    /// Replaces the serialized array, durably and atomically.
    ///
    /// - Parameter serialized: the array and its hash, as the authenticator checked them.
    /// - Throws: `StoreError` when it cannot be kept; the previous array then stays.
    func setSerializedLargeBlobArray(_ serialized: [UInt8]) async throws(StoreError)
}
