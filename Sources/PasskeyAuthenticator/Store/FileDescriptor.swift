import BlockingIO
import Glibc
import WebAuthn

/// An open file or directory, closed when the last reference to it goes (STYLE §2: a long-lived
/// system handle belongs to one `final class` whose `deinit` frees it).
///
/// This file is the only one of the store that names Glibc: every system call the file store
/// makes is here, and each failure becomes a ``StoreError`` carrying `strerror`'s text and the
/// path involved (`ENOSPC` and `EDQUOT` become `disk-full`).
///
/// `Sendable`: the descriptor number and path never change after `init`.
final class FileDescriptor: Sendable {
    /// The descriptor number.
    private let rawValue: Int32
    /// The path it was opened with, for error messages.
    let path: String

    /// Opens a path.
    ///
    /// - Parameters:
    ///   - path: the path.
    ///   - mode: the access mode.
    ///   - options: extra flags (`O_CLOEXEC` is always added).
    /// - Throws: `StoreError` with the system's reason.
    init(opening path: String, _ mode: OpenMode, options: OpenOptions = []) throws(StoreError) {
        let descriptor = Glibc.open(path, mode.flags | options.rawValue | O_CLOEXEC, options.permissions)
        guard descriptor >= 0 else {
            throw Self.systemError("open", path)
        }
        rawValue = descriptor
        self.path = path
    }

    /// Opens a file inside an open directory (`openat`), so the directory cannot be swapped
    /// between calls.
    ///
    /// - Parameters:
    ///   - name: the file name within `directory`.
    ///   - directory: the open directory.
    ///   - mode: the access mode.
    ///   - options: extra flags; `O_NOFOLLOW` and `O_CLOEXEC` are always added.
    /// - Throws: `StoreError` with the system's reason; `ENOENT` when the file does not exist.
    init(opening name: String, in directory: FileDescriptor, _ mode: OpenMode, options: OpenOptions = [])
        throws(StoreError)
    {
        let path = directory.path + "/" + name
        let descriptor = Glibc.openat(
            directory.rawValue, name, mode.flags | options.rawValue | O_CLOEXEC | O_NOFOLLOW, options.permissions)
        guard descriptor >= 0 else {
            throw Self.systemError("open", path)
        }
        rawValue = descriptor
        self.path = path
    }

    /// Opens a file of an open directory for reading, or returns `nil` when it does not exist.
    ///
    /// - Throws: `StoreError` with the system's reason for any other failure.
    convenience init?(openingIfExists name: String, in directory: FileDescriptor) throws(StoreError) {
        let descriptor = Glibc.openat(directory.rawValue, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            guard errno == ENOENT else { throw Self.systemError("open", directory.path + "/" + name) }
            return nil
        }
        self.init(taking: descriptor, path: directory.path + "/" + name)
    }

    private init(taking descriptor: Int32, path: String) {
        rawValue = descriptor
        self.path = path
    }

    deinit {
        Glibc.close(rawValue)
    }

    /// How a file is opened.
    enum OpenMode {
        case readOnly, readWrite, writeOnly, directory

        var flags: Int32 {
            switch self {
            case .readOnly: O_RDONLY
            case .readWrite: O_RDWR
            case .writeOnly: O_WRONLY
            case .directory: O_RDONLY | O_DIRECTORY
            }
        }
    }

    /// Flags for creating a file, which is then made with mode 0600.
    struct OpenOptions: OptionSet {
        let rawValue: Int32

        static let create = OpenOptions(rawValue: O_CREAT)
        static let exclusive = OpenOptions(rawValue: O_CREAT | O_EXCL)

        var permissions: mode_t { contains(.create) ? 0o600 : 0 }
    }

    // MARK: Reading and writing

    /// Reads the whole file from the start.
    ///
    /// - Parameter limit: the largest size accepted.
    /// - Returns: the bytes.
    /// - Throws: `StoreError` with `corrupt` when the file is larger than `limit`, or the system's
    ///   reason.
    func readAll(limit: Int) throws(StoreError) -> [UInt8] {
        let size = try status().size
        guard size <= limit else {
            throw StoreError(.corrupt, "is \(size) bytes, more than the \(limit) a store file may be", file: path)
        }
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.pread(rawValue, buffer.baseAddress! + count, buffer.count - count, off_t(count))
            }
            if read < 0 {
                guard errno == EINTR else { throw Self.systemError("read", path) }
                continue
            }
            if read == 0 { break }
            count += read
        }
        guard count <= limit else {
            throw StoreError(.corrupt, "grew beyond the \(limit) bytes a store file may be", file: path)
        }
        return Array(bytes.prefix(count))
    }

    /// Reads up to `count` bytes at `offset` (`pread`, retried until `count` or the end of the
    /// file).
    ///
    /// - Returns: the bytes; fewer than `count` when the file ends first.
    /// - Throws: `StoreError` with the system's reason.
    func read(_ count: Int, at offset: Int) throws(StoreError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.pread(rawValue, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
            }
            if read < 0 {
                guard errno == EINTR else { throw Self.systemError("read", path) }
                continue
            }
            if read == 0 { break }
            filled += read
        }
        bytes.removeLast(count - filled)
        return bytes
    }

    /// Writes all of `bytes` at `offset` (`pwrite`, retrying short writes).
    ///
    /// - Throws: `StoreError` with `disk-full` for `ENOSPC`, or the system's reason.
    func write(_ bytes: [UInt8], at offset: Int) throws(StoreError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.pwrite(rawValue, buffer.baseAddress! + written, buffer.count - written, off_t(offset + written))
            }
            if count < 0 {
                guard errno == EINTR else { throw Self.systemError("write", path) }
                continue
            }
            written += count
        }
    }

    /// Reads a little-endian `UInt64` at `offset`; 0 when the file is shorter.
    func readUInt64(at offset: Int) throws(StoreError) -> UInt64 {
        var value: UInt64 = 0
        let count = Glibc.pread(rawValue, &value, MemoryLayout<UInt64>.size, off_t(offset))
        guard count >= 0 else {
            throw Self.systemError("read", path)
        }
        return count == MemoryLayout<UInt64>.size ? UInt64(littleEndian: value) : 0
    }

    /// Writes a little-endian `UInt64` at `offset` in one `pwrite`.
    func writeUInt64(_ value: UInt64, at offset: Int) throws(StoreError) {
        var value = value.littleEndian
        let count = Glibc.pwrite(rawValue, &value, MemoryLayout<UInt64>.size, off_t(offset))
        guard count == MemoryLayout<UInt64>.size else {
            throw count < 0 ? Self.systemError("write", path) : StoreError(.io, "short write", file: path)
        }
    }

    /// Flushes the file, or a directory's entries, to stable storage (`fsync`).
    func sync() throws(StoreError) {
        guard Glibc.fsync(rawValue) == 0 else {
            throw Self.systemError("fsync", path)
        }
    }

    // MARK: Metadata

    /// What the store needs to know of a file's `stat`.
    struct Status {
        var size: Int
        var permissions: UInt32
        var owner: UInt32
        /// The last change of the content, or of a directory's entries (`st_mtim`), in nanoseconds
        /// since 1970.
        var modified: Int64
        /// The inode number (`st_ino`): a file replaced by rename has another.
        var inode: UInt64
        /// The last change of the content or the inode (`st_ctim`), in nanoseconds since 1970;
        /// no call sets it back.
        var changed: Int64

        init(_ info: stat) {
            size = Int(info.st_size)
            permissions = UInt32(info.st_mode) & 0o7777
            owner = info.st_uid
            modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
            inode = UInt64(info.st_ino)
            changed = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
        }
    }

    /// The file's status (`fstat`).
    func status() throws(StoreError) -> Status {
        var info = stat()
        guard Glibc.fstat(rawValue, &info) == 0 else {
            throw Self.systemError("stat", path)
        }
        return Status(info)
    }

    /// The status of an entry of this directory (`fstatat` without following a link), or `nil`
    /// when it does not exist.
    func status(of name: String) throws(StoreError) -> Status? {
        var info = stat()
        guard Glibc.fstatat(rawValue, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            guard errno == ENOENT else { throw Self.systemError("stat", path + "/" + name) }
            return nil
        }
        return Status(info)
    }

    /// Sets the file's permission bits (`fchmod`).
    func setPermissions(_ permissions: UInt32) throws(StoreError) {
        guard Glibc.fchmod(rawValue, mode_t(permissions)) == 0 else {
            throw Self.systemError("chmod", path)
        }
    }

    /// The effective user ID of this process.
    static var currentUser: UInt32 { Glibc.geteuid() }

    // MARK: Locking

    /// Takes an advisory lock on the file (`flock`), waiting at most `timeout`.
    ///
    /// `flock` locks belong to the open file description, so two descriptors of one file contend
    /// even within one process. The wait polls with `LOCK_NB` and a growing sleep so that it can
    /// give up: `flock` has no timed form, and interrupting a blocked one needs a signal handler,
    /// which a library must not install. The store calls this on its own executor's thread
    /// (``BlockingExecutor``), so the wait holds no thread of the concurrency pool.
    ///
    /// - Parameters:
    ///   - exclusive: an exclusive (writer) lock rather than a shared (reader) one.
    ///   - timeout: how long to wait for another holder.
    /// - Throws: `StoreError` with `locked` when the timeout passes, or the system's reason.
    func lock(exclusive: Bool, timeout: Duration) throws(StoreError) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause: UInt32 = 50
        while flock(rawValue, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw Self.systemError("flock", path)
            }
            guard clock.now < deadline else {
                throw StoreError(.locked, "another process has held the store's lock for over \(timeout)", file: path)
            }
            Glibc.usleep(pause)
            pause = min(pause * 2, 5000)
        }
    }

    /// Releases the lock taken by ``lock(exclusive:timeout:)``.
    func unlock() {
        flock(rawValue, LOCK_UN)
    }

    // MARK: Directories

    /// Makes a directory with mode 0700 (`mkdirat`).
    ///
    /// - Returns: whether it was made; `false` when something already has that name.
    @discardableResult
    func makeDirectory(_ name: String) throws(StoreError) -> Bool {
        guard Glibc.mkdirat(rawValue, name, 0o700) == 0 else {
            guard errno == EEXIST else { throw Self.systemError("mkdir", path + "/" + name) }
            return false
        }
        return true
    }

    /// Makes a directory and any missing parents, the last with mode 0700 and the parents with
    /// the process's default mode.
    static func makeDirectories(_ path: String) throws(StoreError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        let components = path.split(separator: "/")
        for (position, component) in components.enumerated() {
            prefix += "/" + component
            let mode: mode_t = position == components.count - 1 ? 0o700 : 0o777
            guard Glibc.mkdir(prefix, mode) == 0 || errno == EEXIST else {
                throw systemError("mkdir", prefix)
            }
        }
    }

    /// The names in this directory, without `.` and `..`.
    func entries() throws(StoreError) -> [String] {
        let copy = Glibc.dup(rawValue)
        guard copy >= 0, let stream = Glibc.fdopendir(copy) else {
            throw Self.systemError("opendir", path)
        }
        defer { Glibc.closedir(stream) }
        Glibc.rewinddir(stream)
        var names: [String] = []
        while let entry = Glibc.readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { buffer in
                String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." {
                names.append(name)
            }
        }
        return names
    }

    /// Whether a name exists in this directory (`fstatat` without following a link).
    func contains(_ name: String) throws(StoreError) -> Bool {
        try status(of: name) != nil
    }

    /// Renames an entry of this directory over another (`renameat`); atomic for any observer:
    /// the target names the old file or the new one, never neither (POSIX `rename`).
    func rename(_ name: String, to target: String) throws(StoreError) {
        guard Glibc.renameat(rawValue, name, rawValue, target) == 0 else {
            throw Self.systemError("rename", path + "/" + name)
        }
    }

    /// Removes a file of this directory (`unlinkat`).
    ///
    /// - Returns: whether it existed.
    @discardableResult
    func remove(_ name: String) throws(StoreError) -> Bool {
        guard Glibc.unlinkat(rawValue, name, 0) == 0 else {
            guard errno == ENOENT else { throw Self.systemError("unlink", path + "/" + name) }
            return false
        }
        return true
    }

    /// Replaces `name` in this directory with `bytes`, atomically and durably, through the
    /// package's one durable commit (``DurableFile``): temporary file, `fsync`, `rename`, `fsync`
    /// of the directory (DESIGN.md: The file-backed store).
    ///
    /// On any failure the temporary file is removed and `name` keeps its previous content.
    ///
    /// - Throws: `StoreError` with `disk-full` for `ENOSPC`, or the system's reason.
    func replace(_ name: String, with bytes: [UInt8]) throws(StoreError) {
        do {
            try DurableFile.replace(name, inDirectory: rawValue, path: path, with: bytes)
        } catch {
            throw StoreError(
                error.isDiskFull ? .diskFull : .io, "\(error.operation): \(error.reason)", file: error.path)
        }
    }

    /// The prefix of ``replace(_:with:)``'s temporary files; entries with it are ignored by
    /// readers and removed under the exclusive lock, when no writer can be using them.
    static let temporaryPrefix = DurableFile.temporaryPrefix

    // MARK: Errors

    /// The error for a failed system call, from `errno`.
    static func systemError(_ operation: String, _ path: String) -> StoreError {
        let number = errno
        let text = String(cString: Glibc.strerror(number))
        switch number {
        case ENOSPC, EDQUOT:
            return StoreError(.diskFull, "\(operation): \(text)", file: path)
        default:
            return StoreError(.io, "\(operation): \(text)", file: path)
        }
    }
}
