import FoundationEssentials
public import WebAuthn

/// A credential store in a directory, safe to share between processes (DESIGN.md: The file-backed
/// store).
///
/// ```
/// DIR/                        0700, made if missing; an existing one is tightened to 0700
///   store.json                0600  format version, key source, scrypt salt and cost, key check
///   store.key                 0600  32 random bytes, when there is no passphrase
///   .lock                     0600  flock target; its first 8 bytes count changes (generation)
///   credentials/              0700
///     <base64url(id)>.json    0600  one file per credential
/// ```
///
/// - Secrets: the store key comes from the passphrase through scrypt, or from `store.key`; a
///   wrong passphrase fails the key check in `store.json` and is reported as `wrong-passphrase`.
///   Private keys and hmac-secret seeds are only ever written sealed (``StoredCredential``).
/// - Atomicity: every change writes a new file (`O_EXCL`, 0600), `fsync`s it, renames it over
///   the old one and `fsync`s the directory, so a crash at any instant leaves each file either
///   old or new. A killed writer's temporary file (`.tmp-…`) is ignored, and removed the next
///   time the store is opened.
/// - Concurrency: changes hold an exclusive `flock` on `.lock`, reads a shared one, so processes
///   (and several instances in one process) lose no update. The actor serialises callers within
///   one instance, and no operation awaits while it holds the lock.
/// - Speed: ``credential(id:)`` opens one file by name. Listings by RP use an in-memory index
///   (RP ID → file names) built on first use and rebuilt when the generation in `.lock` shows
///   another instance changed the store. Changes made to the files by hand are seen at once by
///   ``credential(id:)``, and by listings after the next change through a store or a reopen.
/// - Reads never write: looking up or listing changes no file, so a profile that keeps no counter
///   can assert from a read-only store.
/// - Ownership: a directory owned by another user is refused (`insecure`); one of ours with group
///   or other permission bits is tightened to 0700, as is a looser `store.key` to 0600.
public actor FileCredentialStore: CredentialStore {
    public nonisolated let sealingKey: SymmetricKey
    /// The store's directory.
    public nonisolated let directory: String

    private let root: FileDescriptor
    private let credentialsDirectory: FileDescriptor
    private let lockFile: FileDescriptor
    private let lockTimeout: Duration
    private var index: Index?

    /// The largest credential file read, far above a real one (about 1 KiB).
    private static let fileSizeLimit = 64 * 1024
    /// The longest credential ID whose base64url file name fits in 255 bytes.
    private static let maximumIDLength = 186

    /// Opens the store in `directory`, making it if it does not exist.
    ///
    /// With a passphrase this runs scrypt (N = 2^15, r = 8, p = 1: about 70 ms and 32 MiB)
    /// synchronously, once per instance; keep one instance per process rather than one per call.
    ///
    /// - Parameters:
    ///   - directory: the store's path.
    ///   - passphrase: the passphrase the store key derives from; `nil` for a key-file store. A new
    ///     store takes the kind this asks for; an existing one must match it.
    ///   - lockTimeout: how long an operation waits for another process's lock.
    /// - Throws: `StoreError` with `wrong-passphrase` (a wrong passphrase, none for a passphrase
    ///   store, or one for a key-file store), `unsupported-version`, `corrupt` naming
    ///   `store.json` or `store.key`, `insecure`, `locked`, `disk-full` or `io`.
    public init(directory: String, passphrase: Passphrase? = nil, lockTimeout: Duration = .seconds(10))
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
        if try lockFile.status().size < 8 {
            // Reserve the generation's bytes now, so no later change can fail to count itself.
            try lockFile.writeUInt64(0, at: 0)
        }
        try root.makeDirectory("credentials")
        let credentialsDirectory = try FileDescriptor(opening: "credentials", in: root, .directory)
        try Self.removeTemporaryFiles(in: root)
        try Self.removeTemporaryFiles(in: credentialsDirectory)

        self.sealingKey = try Self.storeKey(root: root, credentials: credentialsDirectory, passphrase: passphrase)
        self.directory = directory
        self.root = root
        self.credentialsDirectory = credentialsDirectory
        self.lockFile = lockFile
        self.lockTimeout = lockTimeout
    }

    // MARK: CredentialStore

    public func add(_ credential: StoredCredential) throws(StoreError) {
        let name = try fileName(checking: credential)
        let bytes = try Self.encode(credential)
        try changing { () throws(StoreError) in
            guard try !credentialsDirectory.contains(name) else {
                throw StoreError(
                    .duplicate, "a credential with ID \(Base64URL.encode(credential.id)) is already stored",
                    file: credentialsDirectory.path + "/" + name)
            }
            try credentialsDirectory.replace(name, with: bytes)
            index?.insert(name, rpID: credential.rpID)
        }
    }

    public func credential(id: [UInt8]) throws(StoreError) -> StoredCredential? {
        guard let name = Self.fileName(id) else {
            return nil
        }
        return try reading { () throws(StoreError) in try read(name) }
    }

    public func credentials(rpID: String) throws(StoreError) -> StoreListing {
        try reading { () throws(StoreError) in
            let index = try currentIndex()
            var credentials: [StoredCredential] = []
            var problems = index.problems
            for name in index.filesByRP[rpID, default: []] {
                do throws(StoreError) {
                    if let credential = try read(name), credential.rpID == rpID {
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
            let generation = try lockFile.readUInt64(at: 0)
            let (credentials, problems) = try scan()
            index = Index(generation: generation, credentials: credentials, problems: problems)
            return StoreListing(credentials: Array(credentials.values), problems: Self.sorted(problems))
        }
    }

    public func update(_ credential: StoredCredential) throws(StoreError) {
        let name = try fileName(checking: credential)
        let bytes = try Self.encode(credential)
        try changing { () throws(StoreError) in
            guard try credentialsDirectory.contains(name) else {
                throw Self.notFound(credential.id)
            }
            try credentialsDirectory.replace(name, with: bytes)
            index?.insert(name, rpID: credential.rpID)
        }
    }

    public func delete(id: [UInt8]) throws(StoreError) {
        guard let name = Self.fileName(id) else {
            throw Self.notFound(id)
        }
        try changing { () throws(StoreError) in
            guard try credentialsDirectory.remove(name) else {
                throw Self.notFound(id)
            }
            try credentialsDirectory.sync()
            index?.remove(name)
        }
    }

    public func incrementCounter(id: [UInt8]) throws(StoreError) -> UInt32 {
        guard let name = Self.fileName(id) else {
            throw Self.notFound(id)
        }
        return try changing { () throws(StoreError) in
            guard var credential = try read(name) else {
                throw Self.notFound(id)
            }
            guard credential.signCount < UInt32.max else {
                throw StoreError(
                    .counterExhausted, "the counter is at its maximum", file: credentialsDirectory.path + "/" + name)
            }
            credential.signCount += 1
            try credentialsDirectory.replace(name, with: try Self.encode(credential))
            return credential.signCount
        }
    }

    // MARK: Environment

    /// The passphrase the environment gives, from `PASSKEY_PASSPHRASE` when set and not empty.
    ///
    /// - Parameter environment: the process environment (`ProcessInfo.processInfo.environment`).
    /// - Returns: the passphrase, or `nil` for a key-file store.
    public static func passphrase(environment: [String: String]) -> Passphrase? {
        guard let text = environment["PASSKEY_PASSPHRASE"], !text.isEmpty else {
            return nil
        }
        return Passphrase(text)
    }

    /// The default store directory: `$PASSKEY_STORE`, else `$XDG_DATA_HOME/passkey`, else
    /// `$HOME/.local/share/passkey` (DESIGN.md: Generic WebAuthn in and out).
    ///
    /// - Parameter environment: the process environment.
    /// - Returns: the directory, or `nil` when none of the variables is set.
    public static func defaultDirectory(environment: [String: String]) -> String? {
        if let store = environment["PASSKEY_STORE"], !store.isEmpty {
            return store
        }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return data + "/passkey"
        }
        if let home = environment["HOME"], !home.isEmpty {
            return home + "/.local/share/passkey"
        }
        return nil
    }

    // MARK: Locking

    /// Runs `body` under the shared lock.
    private func reading<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try lockFile.lock(exclusive: false, timeout: lockTimeout)
        defer { lockFile.unlock() }
        return try body()
    }

    /// Runs a change under the exclusive lock, counting it in the generation first, so another
    /// instance that sees the old generation knows its index may be stale even if this process
    /// dies half way.
    private func changing<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try lockFile.lock(exclusive: true, timeout: lockTimeout)
        defer { lockFile.unlock() }
        let generation = try lockFile.readUInt64(at: 0)
        if index?.generation != generation {
            index = nil
        }
        try lockFile.writeUInt64(generation &+ 1, at: 0)
        index?.generation = generation &+ 1
        do {
            return try body()
        } catch {
            // A failure after the rename (the directory fsync) leaves the change made but
            // unrecorded; rebuilding the index is always right.
            index = nil
            throw error
        }
    }

    // MARK: Files

    /// Reads one credential file; `nil` when it does not exist.
    ///
    /// - Throws: `StoreError` with `corrupt` naming the file when it does not parse, holds another
    ///   credential than its name says, or has a sealed field that does not open under the store
    ///   key; `unsupported-version`; or `io`.
    private func read(_ name: String) throws(StoreError) -> StoredCredential? {
        let path = credentialsDirectory.path + "/" + name
        guard let file = try FileDescriptor(openingIfExists: name, in: credentialsDirectory) else {
            return nil
        }
        let bytes = try file.readAll(limit: Self.fileSizeLimit)
        let data = Data(bytes)
        let decoder = JSONDecoder()
        let version: Int
        do {
            version = try decoder.decode(VersionProbe.self, from: data).version
        } catch {
            throw StoreError(.corrupt, "not a credential file: \(Self.describe(error))", file: path)
        }
        guard version == Self.formatVersion else {
            throw StoreError(
                .unsupportedVersion, "credential file version \(version); this library reads \(Self.formatVersion)",
                file: path)
        }
        let credential: StoredCredential
        do {
            credential = try decoder.decode(CredentialFile.self, from: data).credential
        } catch {
            throw StoreError(.corrupt, "not a credential file: \(Self.describe(error))", file: path)
        }
        guard Self.fileName(credential.id) == name else {
            throw StoreError(
                .corrupt, "holds credential \(Base64URL.encode(credential.id)), not the one its name says", file: path)
        }
        do {
            try credential.checkSealedFields(using: sealingKey)
        } catch {
            throw StoreError(.corrupt, "\(error.reason) (tampered, or from another store)", file: path)
        }
        return credential
    }

    /// Reads every credential file, keeping going past unreadable ones.
    private func scan() throws(StoreError) -> (credentials: [String: StoredCredential], problems: [String: StoreError])
    {
        var credentials: [String: StoredCredential] = [:]
        var problems: [String: StoreError] = [:]
        for name in try credentialsDirectory.entries() where Self.isCredentialFileName(name) {
            do throws(StoreError) {
                if let credential = try read(name) {
                    credentials[name] = credential
                }
            } catch {
                problems[name] = error
            }
        }
        return (credentials, problems)
    }

    /// The index, rebuilt when another instance changed the store since it was built.
    private func currentIndex() throws(StoreError) -> Index {
        let generation = try lockFile.readUInt64(at: 0)
        if let index, index.generation == generation {
            return index
        }
        let (credentials, problems) = try scan()
        let fresh = Index(generation: generation, credentials: credentials, problems: problems)
        index = fresh
        return fresh
    }

    private func fileName(checking credential: StoredCredential) throws(StoreError) -> String {
        guard let name = Self.fileName(credential.id) else {
            throw StoreError(
                .invalidCredential,
                "a credential ID must be 1 to \(Self.maximumIDLength) bytes, not \(credential.id.count)")
        }
        do {
            try credential.checkSealedFields(using: sealingKey)
        } catch {
            throw StoreError(.invalidCredential, "\(credential): \(error.reason)")
        }
        return name
    }

    /// `base64url(id).json`, or `nil` for an ID no credential file can be named after.
    private static func fileName(_ id: [UInt8]) -> String? {
        (1...maximumIDLength).contains(id.count) ? Base64URL.encode(id) + ".json" : nil
    }

    private static func isCredentialFileName(_ name: String) -> Bool {
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
    private static func storeKey(root: FileDescriptor, credentials: FileDescriptor, passphrase: Passphrase?)
        throws(StoreError) -> SymmetricKey
    {
        let headerPath = root.path + "/store.json"
        guard try root.contains("store.json") else {
            guard try !credentials.entries().contains(where: isCredentialFileName) else {
                throw StoreError(.corrupt, "is missing while credentials exist", file: headerPath)
            }
            return try create(root: root, passphrase: passphrase)
        }
        let data = Data(try FileDescriptor(opening: "store.json", in: root, .readOnly).readAll(limit: fileSizeLimit))
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
        let key: SymmetricKey
        switch (header.keySource, passphrase) {
        case (.scrypt, nil):
            throw StoreError(.wrongPassphrase, "the store is passphrase-protected and no passphrase was given")
        case (.keyFile, _?):
            throw StoreError(.wrongPassphrase, "the store uses a key file, not a passphrase")
        case (.scrypt, let passphrase?):
            guard let parameters = header.scrypt, parameters.isReasonable else {
                throw StoreError(.corrupt, "scrypt parameters are missing or out of bounds", file: headerPath)
            }
            key = try derive(passphrase, parameters)
        case (.keyFile, nil):
            key = try readKeyFile(root)
        }
        do {
            _ = try AESGCM.open(header.keyCheck.bytes, using: key, authenticating: keyCheckContext)
        } catch {
            if header.keySource == .scrypt {
                throw StoreError(.wrongPassphrase, "the passphrase does not open this store")
            }
            throw StoreError(
                .corrupt, "the key does not match the key check in store.json", file: root.path + "/store.key")
        }
        return key
    }

    private static func create(root: FileDescriptor, passphrase: Passphrase?) throws(StoreError) -> SymmetricKey {
        let parameters = ScryptParameters.fresh()
        let key =
            try passphrase.map { (passphrase) throws(StoreError) in try derive(passphrase, parameters) } ?? .random()
        let keyCheck: [UInt8]
        do {
            keyCheck = try AESGCM.seal(keyCheckPlaintext, using: key, authenticating: keyCheckContext)
        } catch {
            throw StoreError(.io, "cannot seal the key check: \(error.reason)", file: root.path)
        }
        if passphrase == nil {
            var bytes = key.withUnsafeBytes { Array($0) }
            defer { secureZero(&bytes) }
            try root.replace("store.key", with: bytes)
        }
        let header = Header(
            version: formatVersion, keySource: passphrase == nil ? .keyFile : .scrypt,
            scrypt: passphrase == nil ? nil : parameters, keyCheck: Base64URL(keyCheck))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let bytes = try? encoder.encode(header) else {
            throw StoreError(.io, "cannot encode the store header", file: root.path + "/store.json")
        }
        try root.replace("store.json", with: Array(bytes))
        return key
    }

    private static func derive(_ passphrase: Passphrase, _ parameters: ScryptParameters) throws(StoreError)
        -> SymmetricKey
    {
        do {
            return try KDF.scrypt(
                password: passphrase.bytes, salt: parameters.salt.bytes, n: parameters.n, r: parameters.r,
                p: parameters.p)
        } catch {
            throw StoreError(.io, "scrypt failed: \(error.reason)")
        }
    }

    private static func readKeyFile(_ root: FileDescriptor) throws(StoreError) -> SymmetricKey {
        let file = try FileDescriptor(opening: "store.key", in: root, .readOnly)
        if try file.status().permissions & 0o077 != 0 {
            try file.setPermissions(0o600)
        }
        var bytes = try file.readAll(limit: SymmetricKey.byteCount)
        defer { secureZero(&bytes) }
        guard let key = try? SymmetricKey(bytes: bytes) else {
            throw StoreError(.corrupt, "is \(bytes.count) bytes, not \(SymmetricKey.byteCount)", file: file.path)
        }
        return key
    }
}

extension FileCredentialStore {
    /// Which credential files hold which RP's credentials, and which files cannot be read, as of
    /// one generation of the store.
    struct Index {
        var generation: UInt64
        var filesByRP: [String: Set<String>] = [:]
        var rpByFile: [String: String] = [:]
        var problems: [String: StoreError]

        init(generation: UInt64, credentials: [String: StoredCredential], problems: [String: StoreError]) {
            self.generation = generation
            self.problems = problems
            for (name, credential) in credentials {
                insert(name, rpID: credential.rpID)
            }
        }

        mutating func insert(_ name: String, rpID: String) {
            remove(name)
            filesByRP[rpID, default: []].insert(name)
            rpByFile[name] = rpID
        }

        mutating func remove(_ name: String) {
            problems[name] = nil
            if let rpID = rpByFile.removeValue(forKey: name) {
                filesByRP[rpID]?.remove(name)
                if filesByRP[rpID]?.isEmpty == true {
                    filesByRP[rpID] = nil
                }
            }
        }
    }
}
