import BlockingIO

/// The raw baseline of durable writes: files replaced in a directory exactly as the file store
/// commits each change (`OpenFile.replace`: temporary file, `fsync`, `rename`, `fsync` of the
/// directory), with nothing of the store around it. Its calls block: run them on a
/// `BlockingExecutor`, as the store does.
struct RawDurableDirectory: Sendable {
    private let directory: OpenFile<SystemCallError>

    /// Opens `path`, making it (0700) and its parents when missing.
    init(path: String) throws(SystemCallError) {
        try OpenFile<SystemCallError>.makeDirectories(path)
        directory = try OpenFile(opening: path, .directory)
    }

    /// Replaces (or creates) `name` with `bytes`, atomically and durably.
    func replace(_ name: String, with bytes: [UInt8]) throws(SystemCallError) {
        try directory.replace(name, with: bytes)
    }
}
