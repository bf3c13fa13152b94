import BlockingIO
import FoundationEssentials
import Glibc
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
        try mapped { () throws(SystemCallError) in try makeDirectory() }
        let sealed: [UInt8]
        do {
            sealed = try SealedEntry.seal(value, key: try self.key.creatingIfNeeded(), entryKey: key)
        } catch let error as CredentialsStorageError {
            throw error
        } catch {
            throw CredentialsStorageError(.io, path: path(forKey: key), "cannot seal the entry: \(error)")
        }
        try mapped { () throws(SystemCallError) in
            let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw SystemCallError("open", directory) }
            defer { close(descriptor) }
            let name = Base64URL.encode(Array(key.utf8))
            try DurableFile.replace(name + Self.sealedSuffix, inDirectory: descriptor, path: directory, with: sealed)
            if unlinkat(descriptor, name + Self.clearSuffix, 0) == 0 {
                try DurableFile.sync(descriptor, path: directory)
            }
        }
    }

    public func deleteEntry(forKey key: String) throws(CredentialsStorageError) {
        try mapped { () throws(SystemCallError) in
            for path in [path(forKey: key), path(forKey: key, suffix: Self.clearSuffix)] {
                guard unlink(path) == 0 || errno == ENOENT else { throw SystemCallError("unlink", path) }
            }
            try syncDirectory()
        }
    }

    public func deleteAllEntries() throws(CredentialsStorageError) {
        let names = try entryFileNames()
        try mapped { () throws(SystemCallError) in
            for name in names {
                guard unlink(directory + "/" + name) == 0 || errno == ENOENT else {
                    throw SystemCallError("unlink", directory + "/" + name)
                }
            }
            try syncDirectory()
        }
    }

    public func entryKeys() throws(CredentialsStorageError) -> [String] {
        var keys: Set<String> = []
        for name in try entryFileNames() {
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
        let path = directory + "/.lock"
        let descriptor = try mapped { () throws(SystemCallError) -> Int32 in
            try SmallFile.makePrivateDirectory(directory)
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else { throw SystemCallError("open", path) }
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let error = SystemCallError("flock", path)
                    close(descriptor)
                    throw error
                }
            }
            return descriptor
        }
        return CredentialsStorageLock { close(descriptor) }
    }

    /// The names of the entry files, sealed or clear (never `.sealing` or a writer's `.tmp-…`).
    private func entryFileNames() throws(CredentialsStorageError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            guard FileManager.default.fileExists(atPath: directory) else { return [] }
            throw CredentialsStorageError(.io, path: directory, "cannot list the directory")
        }
        return names.filter {
            !$0.hasPrefix(".") && ($0.hasSuffix(Self.sealedSuffix) || $0.hasSuffix(Self.clearSuffix))
        }
    }

    /// A file's bytes, or `nil` when it does not exist.
    static func read(_ path: String) throws(CredentialsStorageError) -> [UInt8]? {
        do {
            return try SmallFile.read(path, limit: sizeLimit)
        } catch  where error.number == EFBIG {
            throw CredentialsStorageError(.tampered, path: path, "larger than any entry (\(sizeLimit) bytes)")
        } catch {
            throw CredentialsStorageError(error)
        }
    }

    /// Runs `body`, turning a failed system call into this storage's public error: the one place
    /// where BlockingIO's `SystemCallError` becomes a ``CredentialsStorageError``.
    private func mapped<Value>(_ body: () throws(SystemCallError) -> Value) throws(CredentialsStorageError) -> Value {
        do {
            return try body()
        } catch {
            throw CredentialsStorageError(error)
        }
    }

    /// Creates the directory's parents as needed and the directory itself with mode 0700.
    private func makeDirectory() throws(SystemCallError) {
        try SmallFile.makePrivateDirectory(directory)
    }

    /// `fsync` of the directory, so an unlink survives a crash; nothing to do when it is missing.
    private func syncDirectory() throws(SystemCallError) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }
            throw SystemCallError("open", directory)
        }
        defer { close(descriptor) }
        try DurableFile.sync(descriptor, path: directory)
    }
}
