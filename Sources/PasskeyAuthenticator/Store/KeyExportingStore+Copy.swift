import WebAuthn

extension KeyExportingStore {
    /// Copies a credential into another store with its key, counter and flags: a cloned
    /// authenticator, as a relying party's clone detection must catch (WebAuthn L3 §6.1.1: once
    /// both sign, one of them reports a counter that is not above the last one seen).
    ///
    /// The private key is taken into `destination`'s custody (sealed under its key); the
    /// hmac-secret seeds are new, since they do not leave a store.
    ///
    /// - Parameters:
    ///   - id: the credential ID.
    ///   - destination: the store to copy into.
    /// - Returns: the copy, as `destination` keeps it.
    /// - Throws: `StoreError` with `not-found` when this store has no such credential,
    ///   `duplicate` when `destination` has one with its ID (it is then unchanged), or another
    ///   code of either store.
    public func copyCredential(id: [UInt8], to destination: any CredentialStore) async throws(StoreError)
        -> StoredCredential
    {
        guard let original = try await credential(id: id) else {
            throw StoreError(.notFound, "no credential \(Base64URL.encode(id)) in this store")
        }
        return try await destination.importCredential(
            privateKey: try await exportPrivateKey(of: original), as: CredentialTemplate(of: original))
    }
}
