public import WebAuthn

/// A credential store that lives and dies with the process, for tests and one-shot runs.
///
/// It follows the same contract as ``FileCredentialStore``: secrets sealed under a store key
/// (here a fresh random one) that never leaves it.
public actor InMemoryCredentialStore: CredentialStore {
    private let keys = SealedKeys(storeKey: .random())
    private var credentialsByID: [[UInt8]: StoredCredential] = [:]

    /// Makes an empty store.
    public init() {}

    // Keys: the custody is immutable and thread-safe, so these run on the caller's executor.

    public nonisolated func makeKey(_ request: CredentialKeyRequest) throws(StoreError) -> CredentialKey {
        try keys.makeKey(request)
    }

    public nonisolated func sign(_ message: [UInt8], with credential: StoredCredential) throws(StoreError)
        -> [UInt8]
    {
        try keys.sign(message, with: credential)
    }

    public nonisolated func hmacSecret(_ salts: [[UInt8]], with credential: StoredCredential, userVerified: Bool)
        throws(StoreError) -> [[UInt8]]?
    {
        try keys.hmacSecret(salts, with: credential, userVerified: userVerified)
    }

    // Records

    public func add(_ credential: StoredCredential) throws(StoreError) {
        try check(credential)
        guard credentialsByID[credential.id] == nil else {
            throw StoreError(.duplicate, "a credential with ID \(Base64URL.encode(credential.id)) is already stored")
        }
        credentialsByID[credential.id] = credential
    }

    public func credential(id: [UInt8]) -> StoredCredential? {
        credentialsByID[id]
    }

    public func summaries(rpID: String) -> [CredentialSummary] {
        credentialsByID.values.filter { $0.rpID == rpID }.map(CredentialSummary.init).sorted {
            CredentialSummary.newestFirst(($0.createdAt, $0.id), ($1.createdAt, $1.id))
        }
    }

    public func credentials(rpID: String) -> StoreListing {
        StoreListing(credentials: credentialsByID.values.filter { $0.rpID == rpID })
    }

    public func all() -> StoreListing {
        StoreListing(credentials: Array(credentialsByID.values))
    }

    public func update(_ credential: StoredCredential) throws(StoreError) {
        try check(credential)
        guard credentialsByID[credential.id] != nil else {
            throw Self.notFound(credential.id)
        }
        credentialsByID[credential.id] = credential
    }

    public func delete(id: [UInt8]) throws(StoreError) {
        guard credentialsByID.removeValue(forKey: id) != nil else {
            throw Self.notFound(id)
        }
    }

    public func incrementCounter(id: [UInt8]) throws(StoreError) -> UInt32 {
        guard var credential = credentialsByID[id] else {
            throw Self.notFound(id)
        }
        guard credential.signCount < UInt32.max else {
            throw StoreError(.counterExhausted, "the counter of \(Base64URL.encode(id)) is at its maximum")
        }
        credential.signCount += 1
        credentialsByID[id] = credential
        return credential.signCount
    }

    private func check(_ credential: StoredCredential) throws(StoreError) {
        do {
            try keys.check(credential)
        } catch {
            throw StoreError(.invalidCredential, "\(credential): \(error.reason)")
        }
    }

    private static func notFound(_ id: [UInt8]) -> StoreError {
        StoreError(.notFound, "no credential has ID \(Base64URL.encode(id))")
    }
}
