import BlockingIO
import FoundationEssentials
import Synchronization
import WebAuthn

/// Credentials in files, each sealed with AES-256-GCM: one file per entry in a directory only the
/// user can open.
///
/// - Layout: the directory (mode 0700, created on first write) holds `<base64url of the
///   key>.sealed` per entry, mode 0600: `"A0SE" ‖ 0x01 ‖ key ID (8 bytes) ‖ nonce ‖ ciphertext ‖
///   tag` (AES-256-GCM, the entry's key as associated data); with a passphrase, also
///   `.sealing` (the scrypt salt and a key check, ``CredentialsSealing/passphrase(_:)``).
/// - Keys: by default a random key in ``CredentialsSealing/defaultKeyFile``, apart from the
///   entries; or a key derived from a passphrase. The entry's key is bound as associated data,
///   so entries cannot be swapped. An entry sealed under another key, or truncated, or altered,
///   is a ``CredentialsStorageError`` (`wrongKey`, `tampered`) naming its file; the other entries
///   stay readable.
/// - Migration: an entry written in the clear by an earlier version (`<base64url>.json`) is
///   sealed when first read, then the clear file is removed.
/// - Atomicity: a write is the package's one durable file commit: a new temporary file
///   (`O_CREAT | O_EXCL`, 0600) is written and `fsync`ed, renamed over the entry, and the
///   directory is `fsync`ed; a crash, or a full disk, at any instant leaves the old entry or the
///   new one, never a torn one. A crashed writer may leave a `.tmp-…` file, which is never read.
/// - Blocking: every method makes blocking system calls (`fsync` above all, and scrypt once per
///   storage with a passphrase). A ``CredentialsManager`` calls them on a thread of its own, off
///   Swift's concurrency pool; code that calls them directly from a task should do the same.
/// - The default directory is `$XDG_DATA_HOME/auth0-passkeys`, else
///   `~/.local/share/auth0-passkeys`.
///
/// Nothing coordinates two processes writing the same entry: the last rename wins, and each
/// reader sees one whole entry.
///
/// ```swift
/// let manager = CredentialsManager(authentication: auth, storage: FileCredentialsStorage(directory: "/var/lib/app/auth0"))
/// ```
public struct FileCredentialsStorage: CredentialsStorage {
    /// The directory of the entries.
    public let directory: String
    /// What the entries are sealed under.
    public let sealing: CredentialsSealing
    private let key: SealingKey

    /// Creates a storage in `directory`, sealed under `sealing`.
    ///
    /// - Parameters:
    ///   - directory: the directory; the default one when `nil`.
    ///   - sealing: the key; a key file in the user's configuration directory by default.
    public init(directory: String? = nil, sealing: CredentialsSealing = .keyFile(CredentialsSealing.defaultKeyFile)) {
        self.directory = directory ?? Self.defaultDirectory
        self.sealing = sealing
        self.key = SealingKey(sealing, directory: self.directory)
    }

    /// `$XDG_DATA_HOME/auth0-passkeys`, else `$HOME/.local/share/auth0-passkeys`.
    public static var defaultDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/auth0-passkeys"
        }
        return (environment["HOME"] ?? ".") + "/.local/share/auth0-passkeys"
    }

    /// The suffix of sealed entries.
    static let sealedSuffix = ".sealed"
    /// The suffix of the clear entries an earlier version wrote.
    static let clearSuffix = ".json"
    /// The largest entry read: far above any token set.
    static let sizeLimit = 1 << 20

    /// The file of an entry within ``directory``.
    func path(forKey key: String, suffix: String = sealedSuffix) -> String {
        directory + "/" + Base64URL.encode(Array(key.utf8)) + suffix
    }

    public func entry(forKey key: String) throws(CredentialsStorageError) -> [UInt8]? {
        let sealedPath = path(forKey: key)
        if let sealed = try Self.read(sealedPath) {
            return try SealedEntry.open(sealed, key: try self.key.existing(), entryKey: key, path: sealedPath)
        }
        guard let clear = try Self.read(path(forKey: key, suffix: Self.clearSuffix)) else { return nil }
        // An earlier version's entry in the clear: seal it, then remove the clear file. Should
        // that fail (a full disk), the value is still returned and the clear file kept.
        try? setEntry(clear, forKey: key)
        return clear
    }

    public func setEntry(_ value: [UInt8], forKey key: String) throws(CredentialsStorageError) {
        try StorageFile.makeDirectories(directory, parentPermissions: 0o700)
        let sealed: [UInt8]
        do {
            sealed = try SealedEntry.seal(value, key: try self.key.creatingIfNeeded(), entryKey: key)
        } catch let error as CredentialsStorageError {
            throw error
        } catch {
            throw CredentialsStorageError(.io, path: path(forKey: key), "cannot seal the entry: \(error)")
        }
        let folder = try StorageFile(opening: directory, .directory)
        let name = Base64URL.encode(Array(key.utf8))
        try folder.replace(name + Self.sealedSuffix, with: sealed)
        if (try? folder.remove(name + Self.clearSuffix)) == true {
            try folder.sync()
        }
    }

    public func deleteEntry(forKey key: String) throws(CredentialsStorageError) {
        guard let folder = try StorageFile(openingIfExists: directory, .directory) else { return }
        let name = Base64URL.encode(Array(key.utf8))
        try folder.remove(name + Self.sealedSuffix)
        try folder.remove(name + Self.clearSuffix)
        try folder.sync()
    }

    public func deleteAllEntries() throws(CredentialsStorageError) {
        guard let folder = try StorageFile(openingIfExists: directory, .directory) else { return }
        for name in try Self.entryFileNames(folder) {
            try folder.remove(name)
        }
        try folder.sync()
    }

    public func entryKeys() throws(CredentialsStorageError) -> [String] {
        var keys: Set<String> = []
        guard let folder = try StorageFile(openingIfExists: directory, .directory) else { return [] }
        for name in try Self.entryFileNames(folder) {
            let suffix = name.hasSuffix(Self.sealedSuffix) ? Self.sealedSuffix : Self.clearSuffix
            let stem = name.dropLast(suffix.count)
            if let bytes = try? Base64URL.decode(String(stem)) {
                keys.insert(String(decoding: bytes, as: UTF8.self))
            }
        }
        return keys.sorted()
    }

    /// `flock` on the directory's `.lock` file (made 0600 on first use), blocking until no other
    /// process holds it; closing the file, or the process ending, releases it.
    public func lock() throws(CredentialsStorageError) -> CredentialsStorageLock {
        try StorageFile.makeDirectories(directory, parentPermissions: 0o700)
        let file = try StorageFile(opening: directory + "/.lock", .readWrite, options: [.create, .noFollow])
        try file.lock(exclusive: true, timeout: nil)
        return CredentialsStorageLock { file.unlock() }
    }

    /// The storage's files and its directory: the package's one file type, failing with
    /// ``CredentialsStorageError``.
    typealias StorageFile = OpenFile<CredentialsStorageError>

    /// The names of the entry files, sealed or clear (never `.sealing` or a writer's `.tmp-…`).
    private static func entryFileNames(_ folder: StorageFile) throws(CredentialsStorageError) -> [String] {
        try folder.entries().filter {
            !$0.hasPrefix(".") && ($0.hasSuffix(sealedSuffix) || $0.hasSuffix(clearSuffix))
        }
    }

    /// A file's bytes, or `nil` when it does not exist.
    static func read(_ path: String) throws(CredentialsStorageError) -> [UInt8]? {
        do {
            return try SmallFile.read(path, limit: sizeLimit)
        } catch  where error.isOverLimit {
            throw CredentialsStorageError(.tampered, path: path, "larger than any entry (\(sizeLimit) bytes)")
        } catch {
            throw CredentialsStorageError(error)
        }
    }
}
