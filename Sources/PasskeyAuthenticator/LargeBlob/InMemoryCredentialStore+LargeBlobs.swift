extension InMemoryCredentialStore: LargeBlobStore {
    public func serializedLargeBlobArray() -> [UInt8] {
        largeBlobArray
    }

    public func setSerializedLargeBlobArray(_ serialized: [UInt8]) {
        largeBlobArray = serialized
    }
}
