import BlockingIO
import FoundationEssentials
import WebAuthn

/// The records: adding, reading, listing, updating and deleting credentials, each under the
/// lock it needs (``FileCredentialStore`` explains the locks, the files and the index).
extension FileCredentialStore {

    public func add(_ credential: StoredCredential) throws(StoreError) {
        let name = try fileName(checking: credential)
        let bytes = try Self.encode(credential)
        try changing { () throws(StoreError) in
            guard try !files.credentials.contains(name) else {
                throw StoreError(
                    .duplicate, "a credential with ID \(Base64URL.encode(credential.id)) is already stored",
                    file: files.credentials.path + "/" + name)
            }
            try files.credentials.replace(name, with: bytes)
            return ((), .added(CredentialSummary(credential)))
        }
    }

    /// Reads a credential: from ``RecentReads`` without leaving the caller's executor when no
    /// change to its file was reported since it was read (the inotify watch, drained without
    /// waiting), else on the store's executor: from memory when the file's identity is the one
    /// read last (one `fstatat`: a file is only ever replaced whole, by rename), else from the
    /// file under the shared lock.
    public nonisolated func credential(id: [UInt8]) async throws(StoreError) -> StoredCredential? {
        guard let name = Self.fileName(id) else {
            return nil
        }
        if let credential = recentReads.credentialsNow([name])?.first {
            return credential
        }
        return try await readCredential(name)
    }

    private func readCredential(_ name: String) throws(StoreError) -> StoredCredential? {
        try reading { () throws(StoreError) in
            let mark = recentReads.mark()
            guard let status = try files.credentials.status(of: name) else {
                recentReads.forget(name)
                return nil
            }
            let file = RecentReads.FileIdentity(status)
            if let credential = recentReads.credential(name, ifStill: file) {
                return credential
            }
            guard let credential = try files.read(name) else {
                return nil
            }
            recentReads.remember(credential, readFrom: name, file: file, since: mark)
            return credential
        }
    }

    public func summaries(rpID: String) throws(StoreError) -> [CredentialSummary] {
        try reading { () throws(StoreError) in
            if let found = try summariesWithoutIndex(rpID: rpID) {
                return found
            }
            try refreshIndex()
            return index?.summaries(rpID: rpID) ?? []
        }
    }

    public func summaries(rpID: String, userHandle: [UInt8]) throws(StoreError) -> [CredentialSummary] {
        try reading { () throws(StoreError) in
            if let found = try summariesWithoutIndex(rpID: rpID) {
                return found.filter { $0.userHandle == userHandle }
            }
            try refreshIndex()
            return index?.summaries(rpID: rpID, userHandle: userHandle) ?? []
        }
    }

    /// An instance's first question about one RP, answered from the journal without building
    /// the index, when the journal describes the directory: a process that makes one ceremony
    /// (the CLI) reads one RP's records rather than indexing every credential (issue 13: 0.5 s
    /// for 100,000). The next question builds the index. Called under the lock.
    private func summariesWithoutIndex(rpID: String) throws(StoreError) -> [CredentialSummary]? {
        guard index == nil, !answeredWithoutIndex else {
            return nil
        }
        answeredWithoutIndex = true
        let now = try files.observe()
        guard now.isConsistent,
            let found = try files.summariesFromJournal(rpID: rpID, length: Int(now.lock.journalLength))
        else {
            return nil
        }
        return found.values.sorted { CredentialSummary.newestFirst(($0.createdAt, $0.id), ($1.createdAt, $1.id)) }
    }

    public func credentials(rpID: String) throws(StoreError) -> StoreListing {
        try reading { () throws(StoreError) in
            try refreshIndex()
            let names = (index?.summaries(rpID: rpID) ?? []).compactMap { Self.fileName($0.id) }
            var credentials: [StoredCredential] = []
            var problems: [String: StoreError] = [:]
            // A file that does not read cannot say its RP, so every listing names it.
            for name in names + (index?.unreadable ?? []).sorted() {
                do throws(StoreError) {
                    if let credential = try files.read(name), credential.rpID == rpID {
                        credentials.append(credential)
                    }
                } catch {
                    problems[name] = error
                }
            }
            return StoreListing(credentials: credentials, problems: Self.sorted(problems))
        }
    }

    public func all() throws(StoreError) -> StoreListing {
        try reading { () throws(StoreError) in
            let (credentials, problems) = try files.scan()
            return StoreListing(credentials: credentials, problems: Self.sorted(problems))
        }
    }

    public func update(_ credential: StoredCredential) throws(StoreError) {
        let name = try fileName(checking: credential)
        let bytes = try Self.encode(credential)
        try changing { () throws(StoreError) in
            guard try files.credentials.contains(name) else {
                throw Self.notFound(credential.id)
            }
            try files.credentials.replace(name, with: bytes)
            return ((), .updated(CredentialSummary(credential)))
        }
    }

    /// Deletes a credential's record; with a ``custody``, then has it discard the key.
    public func delete(id: [UInt8]) async throws(StoreError) {
        guard let name = Self.fileName(id) else {
            throw Self.notFound(id)
        }
        let record = try changing { () throws(StoreError) in
            // Read under the lock, for the custody; an unreadable record is still deleted.
            let record = custody == nil ? nil : try? files.read(name)
            guard try files.credentials.remove(name) else {
                throw Self.notFound(id)
            }
            try files.credentials.sync()
            return (record, .deleted(id: id))
        }
        if let custody, let record {
            try await custody.discardKey(of: record)
        }
    }

    public func incrementCounter(id: [UInt8]) throws(StoreError) -> UInt32 {
        guard let name = Self.fileName(id) else {
            throw Self.notFound(id)
        }
        return try changing { () throws(StoreError) in
            guard var credential = try files.read(name) else {
                throw Self.notFound(id)
            }
            guard credential.signCount < UInt32.max else {
                throw StoreError(
                    .counterExhausted, "the counter is at its maximum", file: files.credentials.path + "/" + name)
            }
            credential.signCount += 1
            try files.credentials.replace(name, with: try Self.encode(credential))
            return (credential.signCount, .unindexed)
        }
    }
}
