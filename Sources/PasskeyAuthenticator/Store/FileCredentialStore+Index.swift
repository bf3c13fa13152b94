extension FileCredentialStore {
    /// The store's credentials as `index.log` describes them, in memory: summaries by RP and by
    /// ID, the names of files that do not read, and how much of which journal is applied.
    struct Index: Sendable {
        /// The epoch of the journal this was read from (empty when built without one).
        var epoch: [UInt8] = []
        /// How many bytes of that journal are applied.
        var journalLength = 0
        /// Whether the journal on disk is not to be trusted (damaged, or found to disagree with
        /// the directory), so the next change rewrites it from this index.
        var needsRewrite = false
        /// The credentials of each RP, by ID.
        private(set) var byRP: [String: [[UInt8]: CredentialSummary]] = [:]
        /// The RP of each credential.
        private(set) var rpByID: [[UInt8]: String] = [:]
        /// The credentials of each user of each RP, by RP ID and user handle.
        private var idsByUser: [UserKey: Set<[UInt8]>] = [:]
        /// Credential files that could not be read, by name.
        private(set) var unreadable: Set<String> = []
        /// ``summaries(rpID:)``'s answers, kept until that RP changes.
        private var sortedByRP: [String: [CredentialSummary]] = [:]

        /// How many credentials the index holds.
        var count: Int { rpByID.count }

        /// One RP's summaries, newest first.
        mutating func summaries(rpID: String) -> [CredentialSummary] {
            if let sorted = sortedByRP[rpID] {
                return sorted
            }
            let sorted = (byRP[rpID]?.values).map {
                $0.sorted { CredentialSummary.newestFirst(($0.createdAt, $0.id), ($1.createdAt, $1.id)) }
            }
            sortedByRP[rpID] = sorted ?? []
            return sorted ?? []
        }

        /// One user's summaries at one RP, newest first.
        func summaries(rpID: String, userHandle: [UInt8]) -> [CredentialSummary] {
            let ids = idsByUser[UserKey(rpID: rpID, userHandle: userHandle)] ?? []
            return ids.compactMap { byRP[rpID]?[$0] }.sorted {
                CredentialSummary.newestFirst(($0.createdAt, $0.id), ($1.createdAt, $1.id))
            }
        }

        /// Whether a credential is indexed.
        func contains(id: [UInt8]) -> Bool {
            rpByID[id] != nil
        }

        /// Applies one journal record.
        mutating func apply(_ record: IndexJournal.Record) {
            switch record {
            case .added(let summary):
                insert(summary)
            case .deleted(let id):
                remove(id: id)
            case .unreadable(let fileName):
                unreadable.insert(fileName)
            }
        }

        mutating func insert(_ summary: CredentialSummary) {
            remove(id: summary.id)
            byRP[summary.rpID, default: [:]][summary.id] = summary
            rpByID[summary.id] = summary.rpID
            idsByUser[UserKey(rpID: summary.rpID, userHandle: summary.userHandle), default: []].insert(summary.id)
            sortedByRP[summary.rpID] = nil
        }

        mutating func remove(id: [UInt8]) {
            if let rpID = rpByID.removeValue(forKey: id) {
                if let summary = byRP[rpID]?.removeValue(forKey: id) {
                    let user = UserKey(rpID: rpID, userHandle: summary.userHandle)
                    idsByUser[user]?.remove(id)
                    if idsByUser[user]?.isEmpty == true {
                        idsByUser[user] = nil
                    }
                }
                if byRP[rpID]?.isEmpty == true {
                    byRP[rpID] = nil
                }
                sortedByRP[rpID] = nil
            }
            if !unreadable.isEmpty, let name = FileCredentialStore.fileName(id) {
                unreadable.remove(name)
            }
        }

        mutating func markUnreadable(_ fileName: String) {
            unreadable.insert(fileName)
        }

        mutating func forgetUnreadable(_ fileName: String) {
            unreadable.remove(fileName)
        }

        /// A whole journal holding this index: one record per credential and per unreadable file.
        ///
        /// - Returns: the bytes and how many records they hold.
        func journal(epoch: [UInt8]) -> (bytes: [UInt8], records: Int) {
            var bytes = IndexJournal.header(epoch: epoch)
            for group in byRP.values {
                for summary in group.values {
                    bytes += IndexJournal.encode(.added(summary))
                }
            }
            for name in unreadable.sorted() {
                bytes += IndexJournal.encode(.unreadable(fileName: name))
            }
            return (bytes, count + unreadable.count)
        }
    }

    /// One user of one relying party, a key of the index.
    struct UserKey: Hashable, Sendable {
        let rpID: String
        let userHandle: [UInt8]
    }

    /// What one change did, for the index and its journal.
    enum Change {
        case added(CredentialSummary)
        /// Many new credentials at once (``FileCredentialStore/add(contentsOf:)``).
        case addedAll([CredentialSummary])
        case updated(CredentialSummary)
        case deleted(id: [UInt8])
        /// A change no summary shows (the signature counter).
        case unindexed

        /// The journal records the change needs, if any.
        var records: [IndexJournal.Record] {
            switch self {
            case .added(let summary), .updated(let summary): [.added(summary)]
            case .addedAll(let summaries): summaries.map(IndexJournal.Record.added)
            case .deleted(let id): [.deleted(id: id)]
            case .unindexed: []
            }
        }

        /// How the number of live credentials changes.
        var liveDelta: Int {
            switch self {
            case .added: 1
            case .addedAll(let summaries): summaries.count
            case .deleted: -1
            case .updated, .unindexed: 0
            }
        }
    }
}
