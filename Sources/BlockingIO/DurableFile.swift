import Glibc

/// The one way this package commits a file (DESIGN.md: The file-backed store): a new file made
/// with `O_CREAT | O_EXCL` and mode 0600 is written in full and `fsync`ed, renamed over the old
/// one, and the directory is `fsync`ed so that the rename itself survives a crash. A reader sees
/// the old file or the new one, never a torn one; on failure the temporary file is removed and
/// the old content stays.
///
/// The credential store and the credentials storage both commit through it. Its calls block:
/// run them from an actor on a ``BlockingExecutor``, never on the concurrency pool.
package enum DurableFile {
    /// The prefix of the temporary files; readers ignore entries with it, and the owner of a
    /// directory may remove them when no writer can be using them (a killed writer's leftovers).
    package static let temporaryPrefix = ".tmp-"

    /// Replaces (or creates) `name` in an open directory with `bytes`, atomically and durably.
    ///
    /// - Parameters:
    ///   - name: the file name within the directory.
    ///   - directory: the open directory's descriptor (`O_DIRECTORY`).
    ///   - directoryPath: the directory's path, for errors.
    ///   - bytes: the new content.
    /// - Throws: ``SystemCallError`` naming the call and the path; ``SystemCallError/isDiskFull``
    ///   for `ENOSPC` and `EDQUOT`.
    package static func replace(
        _ name: String, inDirectory directory: Int32, path directoryPath: String, with bytes: [UInt8]
    ) throws(SystemCallError) {
        var random = SystemRandomNumberGenerator()
        let temporary = temporaryPrefix + String(random.next(), radix: 36) + String(random.next(), radix: 36)
        let descriptor = openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw SystemCallError("open", directoryPath + "/" + temporary)
        }
        do throws(SystemCallError) {
            defer { close(descriptor) }
            try writeAll(bytes, to: descriptor, path: directoryPath + "/" + temporary)
            guard fsync(descriptor) == 0 else {
                throw SystemCallError("fsync", directoryPath + "/" + temporary)
            }
            guard renameat(directory, temporary, directory, name) == 0 else {
                throw SystemCallError("rename", directoryPath + "/" + name)
            }
        } catch {
            unlinkat(directory, temporary, 0)
            throw error
        }
        try sync(directory, path: directoryPath)
    }

    /// Creates `name` in an open directory with `bytes`, durably, unless it exists: the file is
    /// written in full and `fsync`ed under a temporary name, then linked to `name` (`linkat`
    /// fails on an existing name), so two processes making it at once agree on one content.
    ///
    /// - Parameters:
    ///   - name: the file name within the directory.
    ///   - directory: the open directory's descriptor (`O_DIRECTORY`).
    ///   - directoryPath: the directory's path, for errors.
    ///   - bytes: the content.
    /// - Returns: whether this call made it (`false`: it existed, and is unchanged).
    /// - Throws: ``SystemCallError`` naming the call and the path.
    package static func create(
        _ name: String, inDirectory directory: Int32, path directoryPath: String, with bytes: [UInt8]
    ) throws(SystemCallError) -> Bool {
        var random = SystemRandomNumberGenerator()
        let temporary = temporaryPrefix + String(random.next(), radix: 36) + String(random.next(), radix: 36)
        let descriptor = openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw SystemCallError("open", directoryPath + "/" + temporary)
        }
        defer { unlinkat(directory, temporary, 0) }
        let written = Result { () throws(SystemCallError) in
            defer { close(descriptor) }
            try writeAll(bytes, to: descriptor, path: directoryPath + "/" + temporary)
            guard fsync(descriptor) == 0 else {
                throw SystemCallError("fsync", directoryPath + "/" + temporary)
            }
        }
        try written.get()
        guard linkat(directory, temporary, directory, name, 0) == 0 else {
            if errno == EEXIST { return false }
            throw SystemCallError("link", directoryPath + "/" + name)
        }
        try sync(directory, path: directoryPath)
        return true
    }

    /// Flushes a file, or a directory's entries, to stable storage (`fsync`).
    ///
    /// - Throws: ``SystemCallError``.
    package static func sync(_ descriptor: Int32, path: String) throws(SystemCallError) {
        guard fsync(descriptor) == 0 else {
            throw SystemCallError("fsync", path)
        }
    }

    /// Writes all of `bytes` at the descriptor's offset, retrying short and interrupted writes.
    ///
    /// - Throws: ``SystemCallError``.
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(SystemCallError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if count < 0 {
                guard errno == EINTR else { throw SystemCallError("write", path) }
                continue
            }
            written += count
        }
    }
}
