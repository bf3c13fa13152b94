import WebAuthn

extension CredentialStore {
    /// Signs with ``sign(_:with:)``: the store's signatures are as reproducible as its keys make
    /// them.
    public func signReproducibly(_ message: [UInt8], with credential: StoredCredential) async throws(StoreError)
        -> [UInt8]
    {
        try await sign(message, with: credential)
    }
}

extension InMemoryCredentialStore {
    /// Signs with RFC 6979 nonces for ES256 (``SigningKey/deterministicSignature(for:)``).
    public nonisolated func signReproducibly(_ message: [UInt8], with credential: StoredCredential)
        throws(StoreError) -> [UInt8]
    {
        try keys.sign(message, with: credential, reproducibly: true)
    }
}

extension FileCredentialStore {
    /// Signs with RFC 6979 nonces for ES256 when the store keeps the keys; a ``custody`` signs
    /// as it signs.
    public nonisolated func signReproducibly(_ message: [UInt8], with credential: StoredCredential)
        async throws(StoreError) -> [UInt8]
    {
        if let custody {
            return try await custody.sign(message, with: credential)
        }
        return try keys.sign(message, with: credential, reproducibly: true)
    }
}
