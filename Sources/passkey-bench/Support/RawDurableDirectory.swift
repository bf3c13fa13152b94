import BlockingIO
import Glibc

/// The raw baseline of durable writes: files replaced in a directory exactly as the file store
/// commits each change (`DurableFile`: temporary file, `fsync`, `rename`, `fsync` of the
/// directory), with nothing of the store around it. Its calls block: run them on a
/// `BlockingExecutor`, as the store does.
final class RawDurableDirectory: Sendable {
    private let path: String
    private let descriptor: Int32

    /// Opens `path`, making it (0700) and its parents when missing.
    init(path: String) throws(SystemCallError) {
        try SmallFile.makePrivateDirectory(path)
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SystemCallError("open", path)
        }
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    /// Replaces (or creates) `name` with `bytes`, atomically and durably.
    func replace(_ name: String, with bytes: [UInt8]) throws(SystemCallError) {
        try DurableFile.replace(name, inDirectory: descriptor, path: path, with: bytes)
    }
}
