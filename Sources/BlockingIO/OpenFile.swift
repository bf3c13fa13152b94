import Glibc
import SystemPackage

/// An open file or directory, closed when the last reference to it goes (STYLE §2: a long-lived
/// system handle belongs to one `final class` whose `deinit` frees it): the package's one way to
/// make system calls on its files.
///
/// It is swift-system's `FileDescriptor`, which retries `EINTR`, reports `Errno` and writes in
/// full (`writeAll`), plus only what that lacks: the `…at` calls, which name a file inside an
/// open directory so the directory cannot be swapped between calls (`openat`, `fstatat`,
/// `mkdirat`, `unlinkat`, `renameat`, `linkat`), `fsync` of a file or of a directory (so that a
/// rename or an unlink in it survives a crash), `flock`, `fchmod` and listing a directory.
///
/// Each failure is a ``SystemCallError`` naming the call and the path, made into `Failure`, the
/// calling library's own error, in that library's one ``SystemCallFailure`` initializer: the
/// credential store's `StoreError` (`ENOSPC` is `disk-full`), the credentials storage's
/// `CredentialsStorageError` (`diskFull`).
///
/// Every call blocks: make them from an actor on a ``BlockingExecutor``, never on the
/// concurrency pool.
///
/// `Sendable`: the descriptor and the path never change after `init`.
package final class OpenFile<Failure: SystemCallFailure>: Sendable {
    /// How a file is opened.
    package typealias Mode = FileOpenMode
    /// Flags for creating a file.
    package typealias Options = FileOpenOptions
    /// What is known of a file from `stat`.
    package typealias Status = FileStatus

    private let descriptor: FileDescriptor
    /// The path it was opened with, for errors.
    package let path: String

    /// Opens a path.
    ///
    /// - Parameters:
    ///   - path: the path.
    ///   - mode: the access mode.
    ///   - options: extra flags (`O_CLOEXEC` is always added).
    /// - Throws: `Failure`, from the system's error.
    package init(opening path: String, _ mode: Mode, options: Options = []) throws(Failure) {
        do {
            descriptor = try FileDescriptor.open(
                FilePath(path), mode.access, options: mode.options.union(options.options).union(.closeOnExec),
                permissions: options.permissions)
        } catch {
            throw Failure(SystemCallError("open", path, error as? Errno ?? .ioError))
        }
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
    /// - Throws: `Failure`, from the system's error; `ENOENT` when the file does not exist.
    package init(opening name: String, in directory: OpenFile, _ mode: Mode, options: Options = []) throws(Failure) {
        path = directory.path + "/" + name
        switch Self.open(name, in: directory.descriptor, mode, options) {
        case .success(let opened): descriptor = opened
        case .failure(let errno): throw Failure(SystemCallError("open", path, errno))
        }
    }

    /// Opens a file of an open directory for reading, or returns `nil` when it does not exist.
    ///
    /// - Throws: `Failure`, from the system's error, for any other failure.
    package convenience init?(openingIfExists name: String, in directory: OpenFile) throws(Failure) {
        let path = directory.path + "/" + name
        switch Self.open(name, in: directory.descriptor, .readOnly, []) {
        case .success(let opened): self.init(taking: opened, path: path)
        case .failure(let errno) where errno == .noSuchFileOrDirectory: return nil
        case .failure(let errno): throw Failure(SystemCallError("open", path, errno))
        }
    }

    /// Opens a path, or returns `nil` when it does not exist.
    ///
    /// - Throws: `Failure`, from the system's error, for any other failure.
    package convenience init?(openingIfExists path: String, _ mode: Mode) throws(Failure) {
        do {
            self.init(
                taking: try FileDescriptor.open(
                    FilePath(path), mode.access, options: mode.options.union(.closeOnExec)),
                path: path)
        } catch {
            let errno = error as? Errno ?? .ioError
            guard errno == .noSuchFileOrDirectory else { throw Failure(SystemCallError("open", path, errno)) }
            return nil
        }
    }

    private init(taking descriptor: FileDescriptor, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        try? descriptor.close()
    }

    private static func open(_ name: String, in directory: FileDescriptor, _ mode: Mode, _ options: Options)
        -> Result<FileDescriptor, Errno>
    {
        let flags = mode.access.rawValue | mode.options.rawValue | options.options.rawValue | O_CLOEXEC | O_NOFOLLOW
        return retrying { Glibc.openat(directory.rawValue, name, flags, options.permissions?.rawValue ?? 0) }
            .map(FileDescriptor.init(rawValue:))
    }

    // MARK: Reading and writing

    /// Reads the whole file from the start.
    ///
    /// - Parameter limit: the largest size accepted.
    /// - Returns: the bytes.
    /// - Throws: `Failure` from ``SystemCallError/isOverLimit`` when the file is larger than
    ///   `limit`, or from the system's error.
    package func readAll(limit: Int) throws(Failure) -> [UInt8] {
        let size = try status().size
        guard size <= limit else {
            throw Failure(
                SystemCallError(
                    "read", path, .fileTooLarge, detail: "is \(size) bytes, more than the \(limit) it may be"))
        }
        // One byte more than the size, to see a file that grew since the `fstat`.
        let bytes = try read(size + 1, at: 0)
        guard bytes.count <= limit else {
            throw Failure(
                SystemCallError("read", path, .fileTooLarge, detail: "grew beyond the \(limit) bytes it may be"))
        }
        return bytes
    }

    /// Reads up to `count` bytes at `offset` (`pread`, repeated until `count` or the end of the
    /// file).
    ///
    /// - Returns: the bytes; fewer than `count` when the file ends first.
    /// - Throws: `Failure`, from the system's error.
    package func read(_ count: Int, at offset: Int) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        do {
            while filled < count {
                let read = try bytes.withUnsafeMutableBytes { buffer in
                    try descriptor.read(
                        fromAbsoluteOffset: Int64(offset + filled),
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }
                if read == 0 { break }
                filled += read
            }
        } catch {
            throw Failure(SystemCallError("read", path, error as? Errno ?? .ioError))
        }
        bytes.removeLast(count - filled)
        return bytes
    }

    /// Writes all of `bytes` at `offset` (`pwrite`, repeated after a short write).
    ///
    /// - Throws: `Failure`, from the system's error (``SystemCallError/isDiskFull`` for
    ///   `ENOSPC`).
    package func write(_ bytes: [UInt8], at offset: Int) throws(Failure) {
        do {
            try descriptor.writeAll(toAbsoluteOffset: Int64(offset), bytes)
        } catch {
            throw Failure(SystemCallError("write", path, error as? Errno ?? .ioError))
        }
    }

    /// Writes a little-endian `UInt64` at `offset`, in one `pwrite` unless the system writes
    /// less.
    ///
    /// - Throws: `Failure`, from the system's error.
    package func writeUInt64(_ value: UInt64, at offset: Int) throws(Failure) {
        try write((0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }, at: offset)
    }

    /// Flushes the file, or a directory's entries, to stable storage (`fsync`): what makes a
    /// write, or a rename or unlink in a directory, survive a crash.
    ///
    /// - Throws: `Failure`, from the system's error.
    package func sync() throws(Failure) {
        if case .failure(let errno) = Self.retrying({ Glibc.fsync(descriptor.rawValue) }) {
            throw Failure(SystemCallError("fsync", path, errno))
        }
    }

    // MARK: Metadata

    /// The file's status (`fstat`).
    ///
    /// - Throws: `Failure`, from the system's error.
    package func status() throws(Failure) -> Status {
        do throws(Errno) {
            return Status(try descriptor.stat().rawValue)
        } catch {
            throw Failure(SystemCallError("stat", path, error))
        }
    }

    /// The status of an entry of this directory (`fstatat` without following a link), or `nil`
    /// when it does not exist.
    ///
    /// - Throws: `Failure`, from the system's error.
    package func status(of name: String) throws(Failure) -> Status? {
        var info = stat()
        switch Self.retrying({ Glibc.fstatat(descriptor.rawValue, name, &info, AT_SYMLINK_NOFOLLOW) }) {
        case .success: return Status(info)
        case .failure(let errno) where errno == .noSuchFileOrDirectory: return nil
        case .failure(let errno): throw Failure(SystemCallError("stat", path + "/" + name, errno))
        }
    }

    /// Whether a name exists in this directory (`fstatat` without following a link).
    ///
    /// - Throws: `Failure`, from the system's error.
    package func contains(_ name: String) throws(Failure) -> Bool {
        try status(of: name) != nil
    }

    /// Sets the file's permission bits (`fchmod`).
    ///
    /// - Throws: `Failure`, from the system's error.
    package func setPermissions(_ permissions: UInt32) throws(Failure) {
        if case .failure(let errno) = Self.retrying({ Glibc.fchmod(descriptor.rawValue, mode_t(permissions)) }) {
            throw Failure(SystemCallError("chmod", path, errno))
        }
    }

    /// The effective user ID of this process.
    package static var currentUser: UInt32 { Glibc.geteuid() }

    // MARK: Locking

    /// Takes an advisory lock on the file (`flock`), waiting at most `timeout`, or as long as it
    /// takes when `timeout` is `nil`.
    ///
    /// `flock` locks belong to the open file description, so two descriptors of one file contend
    /// even within one process; closing the file, or the process ending, releases the lock. A
    /// timed wait polls with `LOCK_NB` and a growing sleep so that it can give up: `flock` has no
    /// timed form, and interrupting a blocked one needs a signal handler, which a library must
    /// not install. Either wait holds the calling thread: make it on a ``BlockingExecutor``, so
    /// it holds no thread of the concurrency pool.
    ///
    /// - Parameters:
    ///   - exclusive: an exclusive (writer) lock rather than a shared (reader) one.
    ///   - timeout: how long to wait for another holder; `nil` to wait until it lets go.
    /// - Throws: `Failure` from ``SystemCallError/isTimedOut`` when the timeout passes, or from
    ///   the system's error.
    package func lock(exclusive: Bool, timeout: Duration?) throws(Failure) {
        let operation = exclusive ? LOCK_EX : LOCK_SH
        guard let timeout else {
            if case .failure(let errno) = Self.retrying({ flock(descriptor.rawValue, operation) }) {
                throw Failure(SystemCallError("flock", path, errno))
            }
            return
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause: UInt32 = 50
        while case .failure(let errno) = Self.retrying({ flock(descriptor.rawValue, operation | LOCK_NB) }) {
            guard errno == .wouldBlock else {
                throw Failure(SystemCallError("flock", path, errno))
            }
            guard clock.now < deadline else {
                throw Failure(
                    SystemCallError(
                        "flock", path, .timedOut, detail: "another process has held the lock for over \(timeout)"))
            }
            Glibc.usleep(pause)
            pause = min(pause * 2, 5000)
        }
    }

    /// Releases the lock taken by ``lock(exclusive:timeout:)``.
    package func unlock() {
        flock(descriptor.rawValue, LOCK_UN)
    }

    // MARK: Directories

    /// Makes a directory in this one with mode 0700 (`mkdirat`).
    ///
    /// - Returns: whether it was made; `false` when something already has that name.
    /// - Throws: `Failure`, from the system's error.
    @discardableResult
    package func makeDirectory(_ name: String) throws(Failure) -> Bool {
        switch Self.retrying({ Glibc.mkdirat(descriptor.rawValue, name, 0o700) }) {
        case .success: return true
        case .failure(let errno) where errno == .fileExists: return false
        case .failure(let errno): throw Failure(SystemCallError("mkdir", path + "/" + name, errno))
        }
    }

    /// Makes a directory with mode 0700 unless it is one, and any missing parents.
    ///
    /// - Parameters:
    ///   - path: the directory.
    ///   - parentPermissions: the mode of the parents it makes (less the process's umask): 0700
    ///     for a private tree, 0777 for the process's default.
    /// - Throws: `Failure`, from the system's error.
    package static func makeDirectories(_ path: String, parentPermissions: UInt32 = 0o777) throws(Failure) {
        if let info = try? FilePath(path).stat(), info.type == .directory { return }
        var prefix = path.hasPrefix("/") ? "" : "."
        let components = path.split(separator: "/")
        for (position, component) in components.enumerated() {
            prefix += "/" + component
            let mode = position == components.count - 1 ? 0o700 : mode_t(parentPermissions)
            if case .failure(let errno) = retrying({ Glibc.mkdir(prefix, mode) }), errno != .fileExists {
                throw Failure(SystemCallError("mkdir", prefix, errno))
            }
        }
    }

    /// The names in this directory, without `.` and `..`.
    ///
    /// - Throws: `Failure`, from the system's error.
    package func entries() throws(Failure) -> [String] {
        let copy = Glibc.dup(descriptor.rawValue)
        guard copy >= 0, let stream = Glibc.fdopendir(copy) else {
            let errno = Errno(rawValue: Glibc.errno)
            if copy >= 0 { Glibc.close(copy) }
            throw Failure(SystemCallError("opendir", path, errno))
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

    /// Removes a file of this directory (`unlinkat`).
    ///
    /// - Returns: whether it existed.
    /// - Throws: `Failure`, from the system's error.
    @discardableResult
    package func remove(_ name: String) throws(Failure) -> Bool {
        switch Self.retrying({ Glibc.unlinkat(descriptor.rawValue, name, 0) }) {
        case .success: return true
        case .failure(let errno) where errno == .noSuchFileOrDirectory: return false
        case .failure(let errno): throw Failure(SystemCallError("unlink", path + "/" + name, errno))
        }
    }

    /// Renames an entry of this directory over another (`renameat`); atomic for any observer:
    /// the target names the old file or the new one, never neither (POSIX `rename`).
    ///
    /// - Throws: `Failure`, from the system's error.
    func rename(_ name: String, to target: String) throws(Failure) {
        if case .failure(let errno) = Self.retrying({
            Glibc.renameat(descriptor.rawValue, name, descriptor.rawValue, target)
        }) {
            throw Failure(SystemCallError("rename", path + "/" + target, errno))
        }
    }

    /// Links an entry of this directory to a new name (`linkat`), which must not exist.
    ///
    /// - Returns: whether it was linked; `false` when `target` exists.
    /// - Throws: `Failure`, from the system's error.
    func link(_ name: String, to target: String) throws(Failure) -> Bool {
        switch Self.retrying({ Glibc.linkat(descriptor.rawValue, name, descriptor.rawValue, target, 0) }) {
        case .success: return true
        case .failure(let errno) where errno == .fileExists: return false
        case .failure(let errno): throw Failure(SystemCallError("link", path + "/" + target, errno))
        }
    }

    /// Makes a C call that returns -1 and sets `errno` on failure, again while it is interrupted
    /// (`EINTR`), as swift-system does for its own calls.
    private static func retrying(_ call: () -> CInt) -> Result<CInt, Errno> {
        while true {
            let result = call()
            if result >= 0 { return .success(result) }
            let errno = Errno(rawValue: Glibc.errno)
            if errno != .interrupted { return .failure(errno) }
        }
    }
}

/// How ``OpenFile`` opens a file.
package enum FileOpenMode: Sendable {
    case readOnly, readWrite, writeOnly, directory

    var access: FileDescriptor.AccessMode {
        switch self {
        case .readOnly, .directory: .readOnly
        case .readWrite: .readWrite
        case .writeOnly: .writeOnly
        }
    }

    var options: FileDescriptor.OpenOptions {
        self == .directory ? .directory : []
    }
}

/// Flags for creating a file with ``OpenFile``, which is then made with mode 0600.
package struct FileOpenOptions: OptionSet, Sendable {
    package let rawValue: Int32

    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `O_CREAT`.
    package static let create = FileOpenOptions(rawValue: O_CREAT)
    /// `O_CREAT | O_EXCL`: fails when the file exists.
    package static let exclusive = FileOpenOptions(rawValue: O_CREAT | O_EXCL)
    /// `O_NOFOLLOW`: fails when the path's last component is a symbolic link.
    package static let noFollow = FileOpenOptions(rawValue: O_NOFOLLOW)

    var options: FileDescriptor.OpenOptions { FileDescriptor.OpenOptions(rawValue: rawValue) }

    var permissions: FilePermissions? { contains(.create) ? FilePermissions(rawValue: 0o600) : nil }
}

/// What this package needs to know of a file's `stat`.
package struct FileStatus: Sendable {
    /// The size in bytes.
    package var size: Int
    /// The permission bits (`st_mode & 0o7777`).
    package var permissions: UInt32
    /// The owner's user ID.
    package var owner: UInt32
    /// The last change of the content, or of a directory's entries (`st_mtim`), in nanoseconds
    /// since 1970.
    package var modified: Int64
    /// The inode number (`st_ino`): a file replaced by rename has another.
    package var inode: UInt64
    /// The last change of the content or the inode (`st_ctim`), in nanoseconds since 1970; no
    /// call sets it back.
    package var changed: Int64

    init(_ info: stat) {
        size = Int(info.st_size)
        permissions = UInt32(info.st_mode) & 0o7777
        owner = info.st_uid
        modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
        inode = UInt64(info.st_ino)
        changed = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
    }
}
