import Synchronization
public import WebAuthn

/// A credential store that lives and dies with the process, for tests and one-shot runs.
///
/// It follows the same contract as ``FileCredentialStore``: secrets sealed under a store key
/// (here a fresh random one) that never leaves it. Credentials are indexed by ID, by RP ID and
/// by RP ID and user handle, so making a credential costs the same with 10 or 100,000 stored.
/// The records live behind a mutex rather than in the actor's isolation, so that a ceremony
/// reads them without a hop to the actor (``WebAuthnClient/get(json:origin:topOrigin:)``); every
/// change still runs on the actor, one at a time.
public actor InMemoryCredentialStore: KeyExportingStore {
    let keys = SealedKeys(storeKey: .random())
    /// The attestation CA and batches, made on first use (``BatchAttestationStore``).
    var attestationKeys = AttestationKeys()
    /// The serialized large-blob array (``LargeBlobStore``); empty until written.
    var largeBlobArray: [UInt8] = []
    /// The state of a CTAP device over this store (``CTAPStateStore``).
    var ctapDeviceState = CTAPDeviceState()
    private let records = Mutex(Records())

    /// The credentials and their indexes by RP ID and by RP ID and user handle.
    private struct Records {
        var credentialsByID: [[UInt8]: StoredCredential] = [:]
        var idsByRP: [String: Set<[UInt8]>] = [:]
        var idsByUser: [UserKey: Set<[UInt8]>] = [:]

        mutating func insert(_ credential: StoredCredential) {
            credentialsByID[credential.id] = credential
            idsByRP[credential.rpID, default: []].insert(credential.id)
            idsByUser[UserKey(credential), default: []].insert(credential.id)
        }

        mutating func remove(_ credential: StoredCredential) {
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

        /// The summaries of `ids`, newest first.
        func newestFirst(_ ids: Set<[UInt8]>?) -> [CredentialSummary] {
            (ids ?? []).compactMap { credentialsByID[$0].map(CredentialSummary.init) }.sorted {
                CredentialSummary.newestFirst(($0.createdAt, $0.id), ($1.createdAt, $1.id))
            }
        }
    }

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
        try records.withLock { (records) throws(StoreError) in
            guard records.credentialsByID[credential.id] == nil else {
                throw StoreError(
                    .duplicate, "a credential with ID \(Base64URL.encode(credential.id)) is already stored")
            }
            records.insert(credential)
        }
    }

    public func credential(id: [UInt8]) -> StoredCredential? {
        records.withLock { $0.credentialsByID[id] }
    }

    public func summaries(rpID: String) -> [CredentialSummary] {
        records.withLock { $0.newestFirst($0.idsByRP[rpID]) }
    }

    public func summaries(rpID: String, userHandle: [UInt8]) -> [CredentialSummary] {
        records.withLock { $0.newestFirst($0.idsByUser[UserKey(rpID: rpID, userHandle: userHandle)]) }
    }

    public func credentials(rpID: String) -> StoreListing {
        StoreListing(
            credentials: records.withLock { records in
                (records.idsByRP[rpID] ?? []).compactMap { records.credentialsByID[$0] }
            })
    }

    public func all() -> StoreListing {
        StoreListing(credentials: records.withLock { Array($0.credentialsByID.values) })
    }

    public func update(_ credential: StoredCredential) throws(StoreError) {
        try check(credential)
        try records.withLock { (records) throws(StoreError) in
            guard let old = records.credentialsByID[credential.id] else {
                throw Self.notFound(credential.id)
            }
            records.remove(old)
            records.insert(credential)
        }
    }

    public func delete(id: [UInt8]) throws(StoreError) {
        try records.withLock { (records) throws(StoreError) in
            guard let old = records.credentialsByID[id] else {
                throw Self.notFound(id)
            }
            records.remove(old)
        }
    }

    public func incrementCounter(id: [UInt8]) throws(StoreError) -> UInt32 {
        try records.withLock { (records) throws(StoreError) -> UInt32 in
            guard var credential = records.credentialsByID[id] else {
                throw Self.notFound(id)
            }
            guard credential.signCount < UInt32.max else {
                throw StoreError(.counterExhausted, "the counter of \(Base64URL.encode(id)) is at its maximum")
            }
            credential.signCount += 1
            records.credentialsByID[id] = credential
            return credential.signCount
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

extension InMemoryCredentialStore: ImmediateCredentialReads {
    nonisolated func credentialsNow(ids: [[UInt8]]) -> [StoredCredential]? {
        records.withLock { records in ids.compactMap { records.credentialsByID[$0] } }
    }

    nonisolated func discoverableCredentialsNow(rpID: String) -> [StoredCredential]? {
        let found = records.withLock { records in
            (records.idsByRP[rpID] ?? []).compactMap { records.credentialsByID[$0] }.filter(\.discoverable)
        }
        return StoreListing(credentials: found).credentials
    }

    nonisolated var sealedKeysNow: SealedKeys? { keys }
}
