import BlockingIO
import FoundationEssentials
import Glibc
import WebAuthn

/// Credentials in files: one file per entry in a directory only the user can open.
///
/// - Layout: the directory (mode 0700, created on first write) holds `<base64url of the
///   key>.json` per entry, mode 0600.
/// - Atomicity: a write is the package's one durable file commit: a new temporary file
///   (`O_CREAT | O_EXCL`, 0600) is written and `fsync`ed, renamed over the entry, and the
///   directory is `fsync`ed; a crash at any instant leaves the old entry or the new one, never a
///   torn one. A crashed writer may leave a `.tmp-…` file, which is never read.
/// - Blocking: every method makes blocking system calls (`fsync` above all). A
///   ``CredentialsManager`` calls them on a thread of its own, off Swift's concurrency pool;
///   code that calls them directly from a task should do the same.
/// - The default directory is `$XDG_DATA_HOME/auth0-passkeys`, else
///   `~/.local/share/auth0-passkeys`.
///
/// Files are not encrypted: they hold bearer tokens, protected by their mode alone (as a
/// browser's cookie jar is). Nothing coordinates two processes writing the same entry: the last
/// rename wins.
///
/// ```swift
/// let manager = CredentialsManager(authentication: auth, storage: FileCredentialsStorage(directory: "/var/lib/app/auth0"))
/// ```
public struct FileCredentialsStorage: CredentialsStorage {
    /// The directory of the entries.
    public let directory: String

    /// Creates a storage in `directory`.
    ///
    /// - Parameter directory: the directory; the default one when `nil`.
    public init(directory: String? = nil) {
        self.directory = directory ?? Self.defaultDirectory
    }

    /// `$XDG_DATA_HOME/auth0-passkeys`, else `$HOME/.local/share/auth0-passkeys`.
    public static var defaultDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/auth0-passkeys"
        }
        return (environment["HOME"] ?? ".") + "/.local/share/auth0-passkeys"
    }

    /// The file name of an entry within ``directory``.
    func fileName(forKey key: String) -> String {
        Base64URL.encode(Array(key.utf8)) + ".json"
    }

    /// The file of an entry.
    func path(forKey key: String) -> String {
        directory + "/" + fileName(forKey: key)
    }

    public func entry(forKey key: String) throws -> [UInt8]? {
        try mapped { () throws(SystemCallError) -> [UInt8]? in
            let path = path(forKey: key)
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT { return nil }
                throw SystemCallError("open", path)
            }
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw SystemCallError("read", path)
                }
                if count == 0 { return bytes }
                bytes += chunk.prefix(count)
            }
        }
    }

    public func setEntry(_ value: [UInt8], forKey key: String) throws {
        try mapped { () throws(SystemCallError) in
            try makeDirectory()
            let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw SystemCallError("open", directory) }
            defer { close(descriptor) }
            try DurableFile.replace(fileName(forKey: key), inDirectory: descriptor, path: directory, with: value)
        }
    }

    public func deleteEntry(forKey key: String) throws {
        try mapped { () throws(SystemCallError) in
            let path = path(forKey: key)
            guard unlink(path) == 0 || errno == ENOENT else { throw SystemCallError("unlink", path) }
            try syncDirectory()
        }
    }

    public func deleteAllEntries() throws {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        try mapped { () throws(SystemCallError) in
            for name in names where name.hasSuffix(".json") {
                guard unlink(directory + "/" + name) == 0 || errno == ENOENT else {
                    throw SystemCallError("unlink", directory + "/" + name)
                }
            }
            try syncDirectory()
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
        var isDirectory = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory { return }
        let parent = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)])
        if !parent.isEmpty {
            try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw SystemCallError("mkdir", directory)
        }
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

/// A file operation of ``FileCredentialsStorage`` that failed, with the system's error.
public struct CredentialsStorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system call: `open`, `write`, `rename`, …
    public let operation: String
    /// The file or directory.
    public let path: String
    /// The `errno` value.
    public let errorNumber: Int32

    init(_ error: SystemCallError) {
        operation = error.operation
        path = error.path
        errorNumber = error.number
    }

    public var description: String {
        "\(operation) \(path): \(String(cString: strerror(errorNumber)))"
    }
}
