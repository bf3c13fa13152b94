import CStatfs
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
/// rename or an unlink in it survives a crash), `flock`, `fchmod`, `fstatfs` and listing a directory.
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

    let descriptor: FileDescriptor
    /// The path it was opened with, for errors.
    package let path: String

    /// The descriptor's number, for a ``DescriptorChannel`` that carries messages over it while
    /// this file stays open.
    package var rawDescriptor: Int32 { descriptor.rawValue }

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
        let filled = try bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(Failure) in try read(into: buffer, at: offset) }
        }.get()
        bytes.removeLast(count - filled)
        return bytes
    }

    /// Fills `buffer` from `offset` (`pread`, repeated until it is full or the file ends): a
    /// large file read in pieces through one buffer, so that no copy of it is made whole.
    ///
    /// - Returns: how many bytes were read; fewer than the buffer holds when the file ends first.
    /// - Throws: `Failure`, from the system's error.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(Failure) -> Int {
        var filled = 0
        do {
            while filled < buffer.count {
                let read = try descriptor.read(
                    fromAbsoluteOffset: Int64(offset + filled),
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                if read == 0 { break }
                filled += read
            }
        } catch {
            throw Failure(SystemCallError("read", path, error as? Errno ?? .ioError))
        }
        return filled
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

    /// Flushes everything written to the file system this file is on to stable storage
    /// (`syncfs`, syncfs(2)): one wait for the disk for any number of files, where ``sync()``
    /// waits once per file. It also flushes other processes' writes to that file system, so it
    /// costs more on a busy one; since Linux 5.8 it reports a write-back error of any file there.
    ///
    /// - Throws: `Failure`, from the system's error.
    package func syncFilesystem() throws(Failure) {
        if case .failure(let errno) = Self.retrying({ CStatfs.syncfs(descriptor.rawValue) }) {
            throw Failure(SystemCallError("syncfs", path, errno))
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

    /// The filesystem the file is on (`fstatfs`, statfs(2)): whether a ``DirectoryWatch`` on it
    /// reports every change.
    ///
    /// - Throws: `Failure`, from the system's error.
    package func filesystem() throws(Failure) -> Filesystem {
        var info = statfs()
        if case .failure(let errno) = Self.retrying({ CStatfs.fstatfs(descriptor.rawValue, &info) }) {
            throw Failure(SystemCallError("statfs", path, errno))
        }
        return Filesystem(magic: UInt32(truncatingIfNeeded: info.f_type))
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

    /// Makes a C call that returns -1 and sets `errno` on failure (``SystemCall/retrying(_:)``).
    static func retrying(_ call: () -> CInt) -> Result<CInt, Errno> {
        SystemCall.retrying(call)
    }
}
