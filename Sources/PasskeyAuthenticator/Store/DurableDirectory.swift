import BlockingIO

/// A directory whose files are replaced the way every change of ``FileCredentialStore`` is
/// committed: temporary file, `fsync`, `rename`, `fsync` of the directory.
///
/// The store's own primitive, exposed to the package so that `passkey bench` can measure it as
/// the baseline of durable operations.
package struct DurableDirectory: Sendable {
    private let directory: FileDescriptor

    /// Opens a directory, making it (0700) and its parents when missing.
    ///
    /// - Parameter path: the directory.
    /// - Throws: `StoreError` with the system's reason.
    package init(path: String) throws(StoreError) {
        try FileDescriptor.makeDirectories(path)
        directory = try FileDescriptor(opening: path, .directory)
    }

    /// Replaces (or creates) a file durably and atomically.
    ///
    /// - Parameters:
    ///   - name: the file name.
    ///   - bytes: its new content.
    /// - Throws: `StoreError` with `disk-full` or the system's reason; the old content survives.
    package func replace(_ name: String, with bytes: [UInt8]) throws(StoreError) {
        try directory.replace(name, with: bytes)
    }
}
