import BlockingIO

extension FileCredentialStore: LargeBlobStore {
    /// The file of the serialized large-blob array, 0600 beside `store.json`.
    static let largeBlobsFileName = "largeblobs.bin"

    public func serializedLargeBlobArray() throws(StoreError) -> [UInt8] {
        try files.lock.lock(exclusive: false, timeout: lockTimeout)
        defer { files.lock.unlock() }
        guard let file = try StoreFile(openingIfExists: Self.largeBlobsFileName, in: files.root) else {
            return []
        }
        return try file.readAll(limit: Files.fileSizeLimit)
    }

    public func setSerializedLargeBlobArray(_ serialized: [UInt8]) throws(StoreError) {
        guard serialized.count <= Files.fileSizeLimit else {
            throw StoreError(.invalidCredential, "a large-blob array is at most \(Files.fileSizeLimit) bytes here")
        }
        try files.lock.lock(exclusive: true, timeout: lockTimeout)
        defer { files.lock.unlock() }
        try files.root.replace(Self.largeBlobsFileName, with: serialized)
    }
}
