import BlockingIO
import FoundationEssentials
import WebAuthn

extension FileCredentialStore {
    /// The store's open directories and `.lock`, and every operation on them that needs no actor
    /// state: reading credential files, and reading, checking and writing the index journal. The
    /// caller holds the lock each operation needs.
    struct Files: Sendable {
        let root: StoreFile
        let credentials: StoreFile
        let lock: StoreFile
        let keys: SealedKeys
        let custody: (any CredentialKeyCustody)?

        /// The largest credential file read, far above a real one (about 1 KiB).
        static let fileSizeLimit = 64 * 1024
        /// The largest journal read: some 2 million records.
        static let journalSizeLimit = 256 * 1024 * 1024
        /// How much of the journal one read takes when it is scanned for one RP.
        static let journalPiece = 1 << 20

        // MARK: Credential files

        /// Reads one credential file; `nil` when it does not exist.
        ///
        /// - Throws: `StoreError` with `corrupt` naming the file when it does not parse, holds
        ///   another credential than its name says, or has a sealed field that does not open under
        ///   the store key; `unsupported-version`; or `io`.
        func read(_ name: String) throws(StoreError) -> StoredCredential? {
            let path = credentials.path + "/" + name
            guard let file = try StoreFile(openingIfExists: name, in: credentials) else {
                return nil
            }
            let data = Data(try file.readAll(limit: Self.fileSizeLimit))
            let decoder = JSONDecoder()
            let version: Int
            do {
                version = try decoder.decode(VersionProbe.self, from: data).version
            } catch {
                throw StoreError(.corrupt, "not a credential file: \(FileCredentialStore.describe(error))", file: path)
            }
            guard version == FileCredentialStore.formatVersion else {
                throw StoreError(
                    .unsupportedVersion,
                    "credential file version \(version); this library reads \(FileCredentialStore.formatVersion)",
                    file: path)
            }
            let credential: StoredCredential
            do {
                credential = try decoder.decode(CredentialFile.self, from: data).credential
            } catch {
                throw StoreError(.corrupt, "not a credential file: \(FileCredentialStore.describe(error))", file: path)
            }
            guard FileCredentialStore.fileName(credential.id) == name else {
                throw StoreError(
                    .corrupt, "holds credential \(Base64URL.encode(credential.id)), not the one its name says",
                    file: path)
            }
            do {
                try check(credential)
            } catch {
                throw StoreError(.corrupt, "\(error.reason) (tampered, or from another store)", file: path)
            }
            return credential
        }

        /// Checks a record's blobs: that they open under the store key, or that the custody
        /// recognises them.
        func check(_ credential: StoredCredential) throws(StoreError) {
            if let custody {
                try custody.check(credential)
                return
            }
            do {
                try keys.check(credential)
            } catch {
                throw StoreError(.corrupt, error.reason)
            }
        }

        /// The names of the credential files.
        func credentialFileNames() throws(StoreError) -> [String] {
            try credentials.entries().filter(FileCredentialStore.isCredentialFileName)
        }

        /// Reads every credential file, keeping going past unreadable ones.
        func scan() throws(StoreError) -> (credentials: [StoredCredential], problems: [String: StoreError]) {
            var found: [StoredCredential] = []
            var problems: [String: StoreError] = [:]
            for name in try credentialFileNames() {
                do throws(StoreError) {
                    if let credential = try read(name) {
                        found.append(credential)
                    }
                } catch {
                    problems[name] = error
                }
            }
            return (found, problems)
        }

        // MARK: Index

        /// `.lock`, the credentials directory's mtime and the journal's length, now.
        func observe() throws(StoreError) -> Observation {
            Observation(
                lock: LockState(try lock.read(LockState.byteCount, at: 0)),
                credentialsModified: try credentials.status().modified,
                journalLength: try root.status(of: IndexJournal.fileName)?.size)
        }

        /// Reads the whole journal into a new index; a missing, foreign or damaged journal gives
        /// what it holds before the damage, marked ``Index/needsRewrite``.
        func readJournal() throws(StoreError) -> Index {
            var index = Index()
            guard let file = try StoreFile(openingIfExists: IndexJournal.fileName, in: root) else {
                index.needsRewrite = true
                return index
            }
            let bytes = try file.readAll(limit: Self.journalSizeLimit)
            guard let epoch = IndexJournal.epoch(of: bytes[...]) else {
                index.needsRewrite = true
                return index
            }
            index.epoch = epoch
            let records = bytes.dropFirst(IndexJournal.headerLength)
            let intact = IndexJournal.decode(records) { index.apply($0) }
            index.journalLength = IndexJournal.headerLength + intact
            index.needsRewrite = intact < records.count
            return index
        }

        /// One RP's summaries, from a journal that describes the directory (`length` is the one
        /// `.lock` records for it) without building an index; `nil` when the journal is missing,
        /// foreign, of another length or damaged. The journal is read a megabyte at a time
        /// through one buffer (``IndexJournal/RPScan``): at 10⁶ credentials it is 85 MB, which a
        /// process that makes one ceremony need not hold.
        func summariesFromJournal(rpID: String, length: Int) throws(StoreError) -> [[UInt8]: CredentialSummary]? {
            guard let file = try StoreFile(openingIfExists: IndexJournal.fileName, in: root),
                try file.status().size == length,
                IndexJournal.epoch(of: try file.read(IndexJournal.headerLength, at: 0)[...]) != nil
            else {
                return nil
            }
            return try IndexJournal.RPScan.summaries(
                of: rpID, in: IndexJournal.headerLength..<length, piece: Self.journalPiece
            ) { room, offset throws(StoreError) in try file.read(into: room, at: offset) }
        }

        /// Applies what was appended to the journal since `index` was read.
        ///
        /// - Returns: `false` when the journal was replaced or shortened since, so it must be read
        ///   whole.
        func readTail(into index: inout Index) throws(StoreError) -> Bool {
            guard let file = try StoreFile(openingIfExists: IndexJournal.fileName, in: root) else {
                return false
            }
            let size = try file.status().size
            guard size >= index.journalLength, !index.epoch.isEmpty,
                IndexJournal.epoch(of: try file.read(IndexJournal.headerLength, at: 0)[...]) == index.epoch
            else {
                return false
            }
            let tail = try file.read(size - index.journalLength, at: index.journalLength)
            let intact = IndexJournal.decode(tail[...]) { index.apply($0) }
            index.journalLength += intact
            if intact < tail.count {
                index.needsRewrite = true
            }
            return true
        }

        /// Makes `index` agree with the credentials directory, which is the truth: an entry whose
        /// file is gone is dropped, a file the index lacks is read and added (or named as
        /// unreadable). Marks the index for rewriting.
        func reconcile(_ index: inout Index) throws(StoreError) {
            let names = Set(try credentialFileNames())
            var missing: [[UInt8]] = []
            for id in index.rpByID.keys {
                if let name = FileCredentialStore.fileName(id), !names.contains(name) {
                    missing.append(id)
                }
            }
            for id in missing {
                index.remove(id: id)
            }
            for name in index.unreadable where !names.contains(name) {
                index.forgetUnreadable(name)
            }
            for name in names {
                if let id = try? Base64URL.decode(String(name.dropLast(".json".count))), index.contains(id: id) {
                    continue
                }
                do throws(StoreError) {
                    if let credential = try read(name) {
                        index.insert(CredentialSummary(credential))
                        index.forgetUnreadable(name)
                    }
                } catch {
                    index.markUnreadable(name)
                }
            }
            index.needsRewrite = true
        }

        /// Replaces the journal with one holding `index`, durably (temporary file, `fsync`,
        /// `rename`, `fsync` of the directory), and records it in `lock`.
        func rewriteJournal(_ index: inout Index, lock: inout LockState) throws(StoreError) {
            let epoch = SecureRandom.bytes(IndexJournal.epochLength)
            let (bytes, records) = index.journal(epoch: epoch)
            try root.replace(IndexJournal.fileName, with: bytes)
            index.epoch = epoch
            index.journalLength = bytes.count
            index.needsRewrite = false
            lock.journalLength = UInt64(bytes.count)
            lock.journalRecords = UInt64(records)
            lock.liveCredentials = UInt64(index.count)
        }

        /// Appends a change's records to the journal at the end `lock` records, in one write, and
        /// records the new end in `lock`.
        ///
        /// No `fsync`: the record survives a killed process in the page cache, and after a power
        /// loss a journal that lost its tail disagrees with `.lock` or with the directory's mtime
        /// (which the credential file's directory `fsync` made durable), so it is rebuilt. Saving
        /// this `fsync` saves a quarter of a change's.
        func append(_ change: Change, lock: inout LockState) throws(StoreError) {
            let records = change.records
            guard !records.isEmpty else {
                return
            }
            let bytes = records.flatMap(IndexJournal.encode)
            let file = try StoreFile(opening: IndexJournal.fileName, in: root, .writeOnly)
            try file.write(bytes, at: Int(lock.journalLength))
            lock.journalLength += UInt64(bytes.count)
            lock.journalRecords += UInt64(records.count)
            lock.liveCredentials = UInt64(max(0, Int(lock.liveCredentials) + change.liveDelta))
        }

        /// Marks the journal complete for `lock.generation` and the directory as it is now.
        ///
        /// - Returns: the observation that now holds.
        func recordIndexed(_ lock: LockState) throws(StoreError) -> Observation {
            var lock = lock
            lock.credentialsModified = try credentials.status().modified
            lock.indexedGeneration = lock.generation
            try self.lock.write(lock.indexBytes, at: 8)
            return Observation(
                lock: lock, credentialsModified: lock.credentialsModified, journalLength: Int(lock.journalLength))
        }
    }
}
