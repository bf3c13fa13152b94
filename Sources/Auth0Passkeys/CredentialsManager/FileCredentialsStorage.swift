import FoundationEssentials
import Glibc
import WebAuthn

/// Credentials in files: one file per entry in a directory only the user can open.
///
/// - Layout: the directory (mode 0700, created on first write) holds `<base64url of the
///   key>.json` per entry, mode 0600.
/// - Atomicity: a write goes to a new temporary file (`O_CREAT | O_EXCL`, 0600), is `fsync`ed,
///   renamed over the entry, and the directory is `fsync`ed; a crash at any instant leaves the
///   old entry or the new one, never a torn one.
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

    /// The file of an entry.
    func path(forKey key: String) -> String {
        directory + "/" + Base64URL.encode(Array(key.utf8)) + ".json"
    }

    public func entry(forKey key: String) throws -> [UInt8]? {
        let path = path(forKey: key)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw CredentialsStorageError(operation: "open", path: path)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CredentialsStorageError(operation: "read", path: path)
            }
            if count == 0 { return bytes }
            bytes += chunk.prefix(count)
        }
    }

    public func setEntry(_ value: [UInt8], forKey key: String) throws {
        try makeDirectory()
        let target = path(forKey: key)
        let temporary = target + ".\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CredentialsStorageError(operation: "create", path: temporary) }
        do {
            try writeAll(value, to: descriptor, path: temporary)
            guard fsync(descriptor) == 0 else { throw CredentialsStorageError(operation: "fsync", path: temporary) }
            close(descriptor)
            guard rename(temporary, target) == 0 else {
                throw CredentialsStorageError(operation: "rename", path: target)
            }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        try syncDirectory()
    }

    public func deleteEntry(forKey key: String) throws {
        let path = path(forKey: key)
        guard unlink(path) == 0 || errno == ENOENT else {
            throw CredentialsStorageError(operation: "unlink", path: path)
        }
        try syncDirectory()
    }

    public func deleteAllEntries() throws {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasSuffix(".json") {
            guard unlink(directory + "/" + name) == 0 || errno == ENOENT else {
                throw CredentialsStorageError(operation: "unlink", path: directory + "/" + name)
            }
        }
        try syncDirectory()
    }

    /// Creates the directory's parents as needed and the directory itself with mode 0700.
    private func makeDirectory() throws {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory { return }
        let parent = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)])
        if !parent.isEmpty {
            try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw CredentialsStorageError(operation: "mkdir", path: directory)
        }
    }

    private func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CredentialsStorageError(operation: "write", path: path)
            }
            offset += count
        }
    }

    /// `fsync` of the directory, so a rename or unlink survives a crash.
    private func syncDirectory() throws {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }
            throw CredentialsStorageError(operation: "open", path: directory)
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw CredentialsStorageError(operation: "fsync", path: directory) }
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

    init(operation: String, path: String) {
        self.operation = operation
        self.path = path
        self.errorNumber = errno
    }

    public var description: String {
        "\(operation) \(path): \(String(cString: strerror(errorNumber)))"
    }
}
