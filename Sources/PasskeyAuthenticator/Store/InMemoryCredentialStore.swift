public import WebAuthn

/// A credential store that lives and dies with the process, for tests and one-shot runs.
///
/// It follows the same contract as ``FileCredentialStore``: secrets sealed under a store key
/// (here a fresh random one) that never leaves it. Credentials are indexed by ID, by RP ID and
/// by RP ID and user handle, so making a credential costs the same with 10 or 100,000 stored.
public actor InMemoryCredentialStore: KeyExportingStore {
    let keys = SealedKeys(storeKey: .random())
    /// The attestation CA and batches, made on first use (``BatchAttestationStore``).
    var attestationKeys = AttestationKeys()
    /// The serialized large-blob array (``LargeBlobStore``); empty until written.
    var largeBlobArray: [UInt8] = []
    /// The state of a CTAP device over this store (``CTAPStateStore``).
    var ctapDeviceState = CTAPDeviceState()
    private var credentialsByID: [[UInt8]: StoredCredential] = [:]
    private var idsByRP: [String: Set<[UInt8]>] = [:]
    private var idsByUser: [UserKey: Set<[UInt8]>] = [:]

    /// One user of one relying party.
    private struct UserKey: Hashable {
        let rpID: String
        let userHandle: [UInt8]

        init(_ credential: StoredCredential) {
            self.init(rpID: credential.rpID, userHandle: credential.userHandle)
        }

        init(rpID: String, userHandle: [UInt8]) {
            self.rpID = rpID
            self.userHandle = userHandle
        }
    }

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

    public nonisolated func exportPrivateKey(of credential: StoredCredential) throws(StoreError) -> SigningKey {
        try keys.privateKey(of: credential)
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
        insert(credential)
    }

    public func credential(id: [UInt8]) -> StoredCredential? {
        credentialsByID[id]
    }

    public func summaries(rpID: String) -> [CredentialSummary] {
        Self.newestFirst(idsByRP[rpID], in: credentialsByID)
    }

    public func summaries(rpID: String, userHandle: [UInt8]) -> [CredentialSummary] {
        Self.newestFirst(idsByUser[UserKey(rpID: rpID, userHandle: userHandle)], in: credentialsByID)
    }

    public func credentials(rpID: String) -> StoreListing {
        StoreListing(credentials: (idsByRP[rpID] ?? []).compactMap { credentialsByID[$0] })
    }

    public func all() -> StoreListing {
        StoreListing(credentials: Array(credentialsByID.values))
    }

    public func update(_ credential: StoredCredential) throws(StoreError) {
        try check(credential)
        guard let old = credentialsByID[credential.id] else {
            throw Self.notFound(credential.id)
        }
        remove(old)
        insert(credential)
    }

    public func delete(id: [UInt8]) throws(StoreError) {
        guard let old = credentialsByID[id] else {
            throw Self.notFound(id)
        }
        remove(old)
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

    private func insert(_ credential: StoredCredential) {
        credentialsByID[credential.id] = credential
        idsByRP[credential.rpID, default: []].insert(credential.id)
        idsByUser[UserKey(credential), default: []].insert(credential.id)
    }

    private func remove(_ credential: StoredCredential) {
        credentialsByID[credential.id] = nil
        idsByRP[credential.rpID]?.remove(credential.id)
        if idsByRP[credential.rpID]?.isEmpty == true {
            idsByRP[credential.rpID] = nil
        }
        idsByUser[UserKey(credential)]?.remove(credential.id)
        if idsByUser[UserKey(credential)]?.isEmpty == true {
            idsByUser[UserKey(credential)] = nil
        }
    }

    private static func newestFirst(_ ids: Set<[UInt8]>?, in credentials: [[UInt8]: StoredCredential])
        -> [CredentialSummary]
    {
        (ids ?? []).compactMap { credentials[$0].map(CredentialSummary.init) }.sorted {
            CredentialSummary.newestFirst(($0.createdAt, $0.id), ($1.createdAt, $1.id))
        }
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
