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
///   Private keys and hmac-secret seeds are only ever written sealed, or, for seeds, not at all
///   (derived from the store key when used: ``StoredCredential``); the index holds no secret.
/// - Atomicity: every change writes a new file (`O_EXCL`, 0600), `fsync`s it, renames it over
///   the old one and `fsync`s the directory, so a crash at any instant leaves each file either
///   old or new. A killed writer's temporary file (`.tmp-…`) is ignored, and removed the next
///   time the store is opened.
/// - Concurrency: changes hold an exclusive `flock` on `.lock`, reads a shared one, so processes
///   (and several instances in one process) lose no update. The actor serialises callers within
///   one instance, and no operation awaits while it holds the lock. A credential read again is
///   served from memory (`RecentReads`): without the lock or a hop to the store's executor while
///   no change to its file has been reported since it was read (an inotify watch on
///   `credentials/`, drained without waiting: inotify(7) queues the event of every change, by any
///   process, before the changing call returns); on the executor, while its file's identity
///   (inode, change time and size: one `fstatat`) is the one read, since the store replaces a
///   file only whole, by rename. Without a watch (on a network filesystem or FUSE, where inotify
///   misses another host's changes: statfs(2); or the system's limits refused one) only the
///   executor's way serves.
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
///
/// Why one type across its files (about 1,350 lines, one concern per file): every operation runs
/// under the one `flock` on `.lock`, on the one executor, against the one view of the directory
/// (the index, the observation it was built from, the recent reads), and each change updates all
/// three before it lets go of the lock. Split into actors, a change would hold the lock across
/// hops between them, and a reader could see the index of one state and the files of another.
/// What has no such state already stands alone: ``StoredCredential``'s file format,
/// `IndexJournal`, `RecentReads`, `SealedKeys`, `LockState`, BlockingIO's `OpenFile`.
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
    var index: Index?
    /// What the store looked like when ``index`` was last brought up to date.
    var observed: Observation?
    /// Whether ``summariesWithoutIndex(rpID:)`` has answered once.
    var answeredWithoutIndex = false
    /// Credentials read lately, with the identity of the file each was read from, and the watch
    /// that tells when one changes.
    nonisolated let recentReads: RecentReads

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
        try await self.init(
            directory: directory, passphrase: passphrase, lockTimeout: lockTimeout, custody: custody,
            watchingChanges: true)
    }

    /// Opens the store, as ``init(directory:passphrase:lockTimeout:custody:)`` does; with
    /// `watchingChanges` `false`, without the inotify watch, as on a network filesystem or when
    /// the system refuses one: the test seam for that case.
    package init(
        directory: String, passphrase: Passphrase? = nil, lockTimeout: Duration = .seconds(10),
        custody: (any CredentialKeyCustody)? = nil, watchingChanges: Bool
    ) async throws(StoreError) {
        let executor = BlockingExecutor(label: "FileCredentialStore \(directory)")
        let opened = try await executor.run { () throws(StoreError) in
            try Opened(
                directory: directory, passphrase: passphrase, lockTimeout: lockTimeout, custody: custody,
                watchingChanges: watchingChanges)
        }
        self.custody = custody
        self.directory = directory
        self.executor = executor
        self.keys = opened.files.keys
        self.files = opened.files
        self.lockTimeout = lockTimeout
        self.index = opened.index
        self.observed = opened.observed
        self.recentReads = opened.recentReads
    }

    /// What opening a store finds: its files, and the index when opening had to rebuild it.
    private struct Opened: Sendable {
        let files: Files
        let index: Index?
        let observed: Observation?
        let recentReads: RecentReads

        /// Opens, checks and, when needed, repairs the store, under the exclusive lock.
        init(
            directory: String, passphrase: Passphrase?, lockTimeout: Duration, custody: (any CredentialKeyCustody)?,
            watchingChanges: Bool
        ) throws(StoreError) {
            try StoreFile.makeDirectories(directory)
            let root = try StoreFile(opening: directory, .directory)
            let status = try root.status()
            guard status.owner == StoreFile.currentUser else {
                throw StoreError(.insecure, "belongs to user \(status.owner), not to this user", file: directory)
            }
            if status.permissions & 0o077 != 0 {
                try root.setPermissions(0o700)
            }
            let lockFile = try StoreFile(opening: ".lock", in: root, .readWrite, options: .create)
            try lockFile.lock(exclusive: true, timeout: lockTimeout)
            defer { lockFile.unlock() }
            let lockSize = try lockFile.status().size
            if lockSize < LockState.byteCount {
                // Reserve the state's bytes now, so no later change can fail to count itself.
                try lockFile.write([UInt8](repeating: 0, count: LockState.byteCount - lockSize), at: lockSize)
            }
            try root.makeDirectory("credentials")
            let credentialsDirectory = try StoreFile(opening: "credentials", in: root, .directory)
            // No watch only means no reads off the executor: none where inotify(7) misses another
            // host's changes (a network filesystem, FUSE: statfs(2)'s `f_type`), or where the
            // system's limits refuse one (`EMFILE`, `ENOSPC`).
            let watchable = watchingChanges && (try? credentialsDirectory.filesystem().reportsEveryChange) == true
            recentReads = RecentReads(
                watching: watchable ? try? DirectoryWatch<StoreError>(credentialsDirectory) : nil)
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
}
