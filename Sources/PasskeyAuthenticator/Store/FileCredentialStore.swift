import BlockingIO
import FoundationEssentials
public import WebAuthn

/// A credential store in a directory, safe to share between processes (DESIGN.md: The file-backed
/// store).
///
/// ```
/// DIR/                        0700, made if missing; an existing one is tightened to 0700
///   store.json                0600  format version, key source, scrypt salt and cost, key check
///   store.key                 0600  32 random bytes, when there is no passphrase
///   .lock                     0600  flock target; change count and index state (LockState)
///   index.log                 0600  journal of credential summaries (IndexJournal)
///   credentials/              0700
///     <base64url(id)>.json    0600  one file per credential
/// ```
///
/// - Secrets: the store key comes from the passphrase through scrypt, or from `store.key`; a
///   wrong passphrase fails the key check in `store.json` and is reported as `wrong-passphrase`.
///   Private keys and hmac-secret seeds are only ever written sealed (``StoredCredential``); the
///   index holds no secret.
/// - Atomicity: every change writes a new file (`O_EXCL`, 0600), `fsync`s it, renames it over
///   the old one and `fsync`s the directory, so a crash at any instant leaves each file either
///   old or new. A killed writer's temporary file (`.tmp-…`) is ignored, and removed the next
///   time the store is opened.
/// - Concurrency: changes hold an exclusive `flock` on `.lock`, reads a shared one, so processes
///   (and several instances in one process) lose no update. The actor serialises callers within
///   one instance, and no operation awaits while it holds the lock. A credential read again while
///   its file is unchanged (same inode, change time and size) is served from memory with one
///   `fstatat`, without the lock or a hop to the store's executor: the store replaces a file
///   only whole, by rename.
/// - Speed: ``credential(id:)`` opens one file by name. ``summaries(rpID:)`` answers from an
///   index kept in `index.log`: after committing a credential file, a change appends a record
///   for it to the journal, then records in `.lock` that the journal is complete. An
///   instance reads the journal once, then only what other instances appended since (`.lock`'s
///   change count tells it when), so neither a new process nor a change elsewhere costs a read
///   of every credential file.
/// - The files are the truth: when `.lock` shows that a writer died between its file and its
///   record, or the directory changed by hand (its mtime), or the journal is missing, torn or
///   damaged, the journal is checked against the directory listing (an entry whose file is gone
///   is dropped, a file it lacks is read) and rewritten: by `init`, or by the next change. A lost
///   journal costs a rebuild, never a credential. The journal is rewritten smaller when it has
///   grown to over twice the records it needs.
/// - Reads never write: looking up or listing changes no file, so a profile that keeps no counter
///   can assert from a read-only store.
/// - Ownership: a directory owned by another user is refused (`insecure`); one of ours with group
///   or other permission bits is tightened to 0700, as is a looser `store.key` to 0600.
public actor FileCredentialStore: KeyExportingStore {
    /// The store's directory.
    public nonisolated let directory: String
    /// The sealing under the store key: of credential secrets without a ``custody``, and always
    /// of the attestation keys.
    let keys: SealedKeys
    /// The custody of credential keys other than the store's own, if any.
    public nonisolated let custody: (any CredentialKeyCustody)?
    /// Where the actor's code runs: a queue of its own, off the concurrency pool.
    private let executor: BlockingExecutor

    nonisolated let files: Files
    let lockTimeout: Duration
    /// The index, once read.
    private var index: Index?
    /// What the store looked like when ``index`` was last brought up to date.
    private var observed: Observation?
    /// Whether ``summariesWithoutIndex(rpID:)`` has answered once.
    private var answeredWithoutIndex = false
    /// Credentials read lately, with the identity of the file each was read from.
    private nonisolated let recentReads = RecentReads()

    /// The longest credential ID whose base64url file name fits in 255 bytes.
    private static let maximumIDLength = 186

    /// Opens the store in `directory`, making it if it does not exist.
    ///
    /// With a passphrase this runs scrypt (N = 2^15, r = 8, p = 1: about 70 ms and 32 MiB), once
    /// per instance; keep one instance per process rather than one per call. When the index
    /// journal does not describe the credentials directory (a writer was killed, or the store
    /// predates the journal), this rebuilds it, reading the credential files it lacks. All of it
    /// runs on the store's own executor, off the concurrency pool.
    ///
    /// - Parameters:
    ///   - directory: the store's path.
    ///   - passphrase: the passphrase the store key derives from; `nil` for a key-file store. A new
    ///     store takes the kind this asks for; an existing one must match it.
    ///   - lockTimeout: how long an operation waits for another process's lock.
    ///   - custody: who keeps the credentials' keys; `nil` (the default) seals them under the store
    ///     key. A new store records its custody in `store.json`; an existing one opens only with it.
    /// - Throws: `StoreError` with `wrong-passphrase` (a wrong passphrase, none for a passphrase
    ///   store, or one for a key-file store), `unsupported` (another custody than the store's),
    ///   `unsupported-version`, `corrupt` naming `store.json` or `store.key`, `insecure`, `locked`,
    ///   `disk-full` or `io`.
    public init(
        directory: String, passphrase: Passphrase? = nil, lockTimeout: Duration = .seconds(10),
        custody: (any CredentialKeyCustody)? = nil
    ) async throws(StoreError) {
        let executor = BlockingExecutor(label: "FileCredentialStore \(directory)")
        let opened = try await executor.run { () throws(StoreError) in
            try Opened(directory: directory, passphrase: passphrase, lockTimeout: lockTimeout, custody: custody)
        }
        self.custody = custody
        self.directory = directory
        self.executor = executor
        self.keys = opened.files.keys
        self.files = opened.files
        self.lockTimeout = lockTimeout
        self.index = opened.index
        self.observed = opened.observed
    }

    /// What opening a store finds: its files, and the index when opening had to rebuild it.
    private struct Opened: Sendable {
        let files: Files
        let index: Index?
        let observed: Observation?

        /// Opens, checks and, when needed, repairs the store, under the exclusive lock.
        init(directory: String, passphrase: Passphrase?, lockTimeout: Duration, custody: (any CredentialKeyCustody)?)
            throws(StoreError)
        {
            try FileDescriptor.makeDirectories(directory)
            let root = try FileDescriptor(opening: directory, .directory)
            let status = try root.status()
            guard status.owner == FileDescriptor.currentUser else {
                throw StoreError(.insecure, "belongs to user \(status.owner), not to this user", file: directory)
            }
            if status.permissions & 0o077 != 0 {
                try root.setPermissions(0o700)
            }
            let lockFile = try FileDescriptor(opening: ".lock", in: root, .readWrite, options: .create)
            try lockFile.lock(exclusive: true, timeout: lockTimeout)
            defer { lockFile.unlock() }
            let lockSize = try lockFile.status().size
            if lockSize < LockState.byteCount {
                // Reserve the state's bytes now, so no later change can fail to count itself.
                try lockFile.write([UInt8](repeating: 0, count: LockState.byteCount - lockSize), at: lockSize)
            }
            try root.makeDirectory("credentials")
            let credentialsDirectory = try FileDescriptor(opening: "credentials", in: root, .directory)
            try FileCredentialStore.removeTemporaryFiles(in: root)
            let keys = SealedKeys(
                storeKey: try FileCredentialStore.storeKey(
                    root: root, credentials: credentialsDirectory, passphrase: passphrase, custody: custody?.name))
            files = Files(root: root, credentials: credentialsDirectory, lock: lockFile, keys: keys, custody: custody)
            (index, observed) = try FileCredentialStore.repairIndex(files)
        }
    }

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    // MARK: Keys

    public nonisolated func makeKey(_ request: CredentialKeyRequest) async throws(StoreError) -> CredentialKey {
        guard Self.fileName(request.credentialID) != nil else {
            throw StoreError(
                .invalidCredential,
                "a credential ID must be 1 to \(Self.maximumIDLength) bytes, not \(request.credentialID.count)")
        }
        if let custody {
            return try await custody.makeKey(request)
        }
        return try keys.makeKey(request)
    }

    public nonisolated func sign(_ message: [UInt8], with credential: StoredCredential) async throws(StoreError)
        -> [UInt8]
    {
        if let custody {
            return try await custody.sign(message, with: credential)
        }
        return try keys.sign(message, with: credential)
    }

    /// The credential's private key, when the store keeps it (no ``custody``).
    ///
    /// - Throws: `StoreError` with `unsupported` when a custody keeps the keys: they never leave it.
    public nonisolated func exportPrivateKey(of credential: StoredCredential) throws(StoreError) -> SigningKey {
        guard custody == nil else {
            throw StoreError(
                .unsupported, "the keys of this store are kept by \(type(of: custody!)) and never leave it")
        }
        return try keys.privateKey(of: credential)
    }

    public nonisolated func hmacSecret(_ salts: [[UInt8]], with credential: StoredCredential, userVerified: Bool)
        async throws(StoreError) -> [[UInt8]]?
    {
        if let custody {
            return try await custody.hmacSecret(salts, with: credential, userVerified: userVerified)
        }
        return try keys.hmacSecret(salts, with: credential, userVerified: userVerified)
    }

    // MARK: Records

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

    /// Reads a credential: from ``RecentReads`` without leaving the caller's executor when its file
    /// is the one read last (one `fstatat`, no lock: a file is only ever replaced whole, by
    /// rename), else from its file under the shared lock, on the store's executor.
    public nonisolated func credential(id: [UInt8]) async throws(StoreError) -> StoredCredential? {
        guard let name = Self.fileName(id) else {
            return nil
        }
        if let status = try? files.credentials.status(of: name),
            let credential = recentReads.credential(name, ifStill: RecentReads.FileIdentity(status))
        {
            return credential
        }
        return try await readCredential(name)
    }

    private func readCredential(_ name: String) throws(StoreError) -> StoredCredential? {
        try reading { () throws(StoreError) in
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
            recentReads.remember(credential, readFrom: name, file: file)
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

    // MARK: Locking

    /// Runs `body` under the shared lock.
    private func reading<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try files.lock.lock(exclusive: false, timeout: lockTimeout)
        defer { files.lock.unlock() }
        return try body()
    }

    /// Runs a change under the exclusive lock, then records it in the index journal.
    ///
    /// The generation is counted before `body` runs, so a writer killed mid-change leaves
    /// `.lock` saying the journal is behind, and the next reader checks it against the directory.
    /// After `body`, the change's record is appended (or, when the journal needs it,
    /// the journal is rewritten whole) and only then is the generation marked indexed. Failing to
    /// write the journal does not fail the change, which is committed in its file: it leaves the
    /// journal marked behind, which costs the next reader a check against the directory.
    private func changing<T>(_ body: () throws(StoreError) -> (T, Change)) throws(StoreError) -> T {
        try files.lock.lock(exclusive: true, timeout: lockTimeout)
        defer { files.lock.unlock() }
        let before = try files.observe()
        let rewrite = !before.isConsistent || before.journalNeedsCompaction
        if index != nil || rewrite {
            try refreshIndex(before)
        }
        var lock = before.lock
        lock.generation &+= 1
        try files.lock.writeUInt64(lock.generation, at: 0)
        let (result, change): (T, Change)
        do {
            (result, change) = try body()
        } catch {
            abandon(before, generation: lock.generation)
            throw error
        }
        if let record = change.record {
            index?.apply(record)
        }
        do {
            if rewrite || index?.needsRewrite == true, var index {
                self.index = nil  // keeps `index` uniquely referenced, so it is not copied
                defer { self.index = index }
                try files.rewriteJournal(&index, lock: &lock)
            } else {
                try files.append(change, lock: &lock)
                index?.journalLength = Int(lock.journalLength)
            }
            observed = try files.recordIndexed(lock)
        } catch {
            observed = nil
        }
        return result
    }

    /// After a change failed: when the credentials directory is as it was, the journal still
    /// describes it, so mark the new generation indexed; otherwise leave it for the next reader
    /// to check.
    private func abandon(_ before: Observation, generation: UInt64) {
        var lock = before.lock
        lock.generation = generation
        if before.isConsistent, let now = try? files.observe(), now.credentialsModified == before.credentialsModified,
            let recorded = try? files.recordIndexed(lock)
        {
            observed = index == nil ? nil : recorded
        } else {
            index = nil
            observed = nil
        }
    }

    /// Brings ``index`` up to date with the store, reading as little as it can: nothing when the
    /// store is as last seen; the journal's new records when another instance appended some; the
    /// whole journal when it was rewritten; and, when the journal does not describe the directory,
    /// a check against the directory listing.
    ///
    /// - Parameter observation: the store as just observed under the lock, if the caller has it.
    private func refreshIndex(_ observation: Observation? = nil) throws(StoreError) {
        let now: Observation
        if let observation {
            now = observation
        } else {
            now = try files.observe()
        }
        if index != nil, now == observed {
            return
        }
        var current = index ?? Index()
        index = nil  // keeps `current` uniquely referenced, so it is not copied
        if try !files.readTail(into: &current) {
            current = try files.readJournal()
        }
        if !now.isConsistent || current.needsRewrite {
            try files.reconcile(&current)
        }
        index = current
        observed = now
    }

    /// Called by `init` under the exclusive lock: when the journal does not describe the
    /// directory, removes killed writers' temporary files, rebuilds the index and rewrites the
    /// journal, so that the processes that open the store next need not. A journal that cannot be
    /// written is left for the next change.
    private static func repairIndex(_ files: Files) throws(StoreError) -> (Index?, Observation?) {
        guard !(try files.observe().isConsistent) else {
            return (nil, nil)
        }
        // Only a writer killed mid-change leaves a temporary file among the credentials, and it
        // leaves the journal marked behind; so the (long) listing is read only then.
        try removeTemporaryFiles(in: files.credentials)
        let observation = try files.observe()
        var index = try files.readJournal()
        try files.reconcile(&index)
        var lock = observation.lock
        do {
            try files.rewriteJournal(&index, lock: &lock)
            return (index, try files.recordIndexed(lock))
        } catch {
            return (index, nil)
        }
    }

    // MARK: Files

    private func fileName(checking credential: StoredCredential) throws(StoreError) -> String {
        guard let name = Self.fileName(credential.id) else {
            throw StoreError(
                .invalidCredential,
                "a credential ID must be 1 to \(Self.maximumIDLength) bytes, not \(credential.id.count)")
        }
        do {
            try files.check(credential)
        } catch {
            throw StoreError(.invalidCredential, "\(credential): \(error.reason)")
        }
        return name
    }

    /// `base64url(id).json`, or `nil` for an ID no credential file can be named after.
    static func fileName(_ id: [UInt8]) -> String? {
        (1...maximumIDLength).contains(id.count) ? Base64URL.encode(id) + ".json" : nil
    }

    static func isCredentialFileName(_ name: String) -> Bool {
        name.hasSuffix(".json") && !name.hasPrefix(".")
    }

    private static func encode(_ credential: StoredCredential) throws(StoreError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return Array(try encoder.encode(CredentialFile(version: formatVersion, credential: credential)))
        } catch {
            throw StoreError(.invalidCredential, "\(credential) does not encode as JSON")
        }
    }

    private static func removeTemporaryFiles(in directory: FileDescriptor) throws(StoreError) {
        for name in try directory.entries() where name.hasPrefix(FileDescriptor.temporaryPrefix) {
            try directory.remove(name)
        }
    }

    private static func sorted(_ problems: [String: StoreError]) -> [StoreError] {
        problems.sorted { $0.key < $1.key }.map(\.value)
    }

    private static func notFound(_ id: [UInt8]) -> StoreError {
        StoreError(.notFound, "no credential has ID \(Base64URL.encode(id))")
    }

    // MARK: Store key

    /// Reads `store.json` and the key it describes, or makes both for a new store; called under
    /// the exclusive lock.
    private static func storeKey(
        root: FileDescriptor, credentials: FileDescriptor, passphrase: Passphrase?, custody: String?
    ) throws(StoreError) -> SecretKey {
        let headerPath = root.path + "/store.json"
        guard try root.contains("store.json") else {
            guard try !credentials.entries().contains(where: isCredentialFileName) else {
                throw StoreError(.corrupt, "is missing while credentials exist", file: headerPath)
            }
            return try create(root: root, passphrase: passphrase, custody: custody)
        }
        let data = Data(
            try FileDescriptor(opening: "store.json", in: root, .readOnly).readAll(limit: Files.fileSizeLimit))
        let header: Header
        do {
            let version = try JSONDecoder().decode(VersionProbe.self, from: data).version
            guard version == formatVersion else {
                throw StoreError(
                    .unsupportedVersion, "store format \(version); this library reads \(formatVersion)",
                    file: headerPath)
            }
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.corrupt, "not a store header: \(describe(error))", file: headerPath)
        }
        guard header.custody == custody else {
            throw StoreError(
                .unsupported,
                header.custody.map { "its keys are kept by \($0); open it with that custody (--backend pkcs11)" }
                    ?? "it keeps its own keys, sealed; it cannot be opened with custody \(custody ?? "")",
                file: headerPath)
        }
        switch (header.keySource, passphrase) {
        case (.scrypt, nil):
            throw StoreError(.wrongPassphrase, "the store is passphrase-protected and no passphrase was given")
        case (.keyFile, _?):
            throw StoreError(.wrongPassphrase, "the store uses a key file, not a passphrase")
        case (.scrypt, let passphrase?):
            guard let verifier = header.passphraseVerifier, verifier.isReasonable else {
                throw StoreError(.corrupt, "scrypt parameters are missing or out of bounds", file: headerPath)
            }
            let key: SecretKey?
            do {
                key = try verifier.key(passphrase, checkedBy: keyCheck)
            } catch {
                throw StoreError(.io, "scrypt failed: \(error.reason)")
            }
            guard let key else {
                throw StoreError(.wrongPassphrase, "the passphrase does not open this store")
            }
            return key
        case (.keyFile, nil):
            let key = try readKeyFile(root)
            guard keyCheck.isOpened(header.keyCheck, by: key) else {
                throw StoreError(
                    .corrupt, "the key does not match the key check in store.json", file: root.path + "/store.key")
            }
            return key
        }
    }

    private static func create(root: FileDescriptor, passphrase: Passphrase?, custody: String?) throws(StoreError)
        -> SecretKey
    {
        let key: SecretKey
        let verifier: PassphraseVerifier?
        do {
            if let passphrase {
                (verifier, key) = try PassphraseVerifier.make(passphrase, checkedBy: keyCheck)
            } else {
                (verifier, key) = (nil, .random())
            }
        } catch {
            throw StoreError(.io, "cannot derive the store key or seal its check: \(error.reason)", file: root.path)
        }
        let sealedCheck: Base64URL
        if let verifier {
            sealedCheck = verifier.keyCheck
        } else {
            do {
                sealedCheck = try keyCheck.seal(under: key)
            } catch {
                throw StoreError(.io, "cannot seal the key check: \(error.reason)", file: root.path)
            }
        }
        if passphrase == nil {
            var bytes = key.withUnsafeBytes { Array($0) }
            defer { secureZero(&bytes) }
            try root.replace("store.key", with: bytes)
        }
        let header = Header(
            version: formatVersion, keySource: verifier == nil ? .keyFile : .scrypt, scrypt: verifier?.scrypt,
            keyCheck: sealedCheck, custody: custody)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let bytes = try? encoder.encode(header) else {
            throw StoreError(.io, "cannot encode the store header", file: root.path + "/store.json")
        }
        try root.replace("store.json", with: Array(bytes))
        return key
    }

    /// The key scrypt derives from a passphrase (RFC 7914), for the store key and for sealed exports.
    static func derive(_ passphrase: Passphrase, _ parameters: ScryptParameters) throws(StoreError)
        -> SecretKey
    {
        do {
            return try parameters.key(for: passphrase)
        } catch {
            throw StoreError(.io, "scrypt failed: \(error.reason)")
        }
    }

    private static func readKeyFile(_ root: FileDescriptor) throws(StoreError) -> SecretKey {
        let file = try FileDescriptor(opening: "store.key", in: root, .readOnly)
        if try file.status().permissions & 0o077 != 0 {
            try file.setPermissions(0o600)
        }
        var bytes = try file.readAll(limit: SecretKey.byteCount)
        defer { secureZero(&bytes) }
        guard let key = try? SecretKey(bytes: bytes) else {
            throw StoreError(.corrupt, "is \(bytes.count) bytes, not \(SecretKey.byteCount)", file: file.path)
        }
        return key
    }
}
