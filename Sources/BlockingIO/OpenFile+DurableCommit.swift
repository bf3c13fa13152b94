extension OpenFile {
    /// The prefix of the temporary files of ``replace(_:with:)`` and ``create(_:with:)``; readers
    /// ignore entries with it, and the owner of a directory may remove them when no writer can be
    /// using them (a killed writer's leftovers).
    package static var temporaryPrefix: String { ".tmp-" }

    /// Replaces (or creates) `name` in this directory with `bytes`, atomically and durably: the
    /// package's one way to commit a file (DESIGN.md: The file-backed store).
    ///
    /// A new file made with `O_CREAT | O_EXCL` and mode 0600 is written in full and `fsync`ed,
    /// so its content is on disk before any name points at it; it is renamed over the old one,
    /// which is atomic (a reader sees the old file or the new one, never a torn one); and the
    /// directory is `fsync`ed, so that the rename itself survives a crash. On failure the
    /// temporary file is removed and the old content stays.
    ///
    /// - Parameters:
    ///   - name: the file name within this directory.
    ///   - bytes: the new content.
    /// - Throws: `Failure`, from the call that failed and its path (``SystemCallError/isDiskFull``
    ///   for `ENOSPC` and `EDQUOT`).
    package func replace(_ name: String, with bytes: [UInt8]) throws(Failure) {
        let temporary = Self.temporaryName()
        let file = try OpenFile(opening: temporary, in: self, .writeOnly, options: .exclusive)
        do throws(Failure) {
            try file.write(bytes, at: 0)
            try file.sync()
            try rename(temporary, to: name)
        } catch {
            _ = try? remove(temporary)
            throw error
        }
        try sync()
    }

    /// Creates `name` in this directory with `bytes`, durably, unless it exists: the file is
    /// written in full and `fsync`ed under a temporary name, then linked to `name` (`linkat`
    /// fails on an existing name), and the directory is `fsync`ed; so two processes making it at
    /// once agree on one content.
    ///
    /// - Parameters:
    ///   - name: the file name within this directory.
    ///   - bytes: the content.
    /// - Returns: whether this call made it (`false`: it existed, and is unchanged).
    /// - Throws: `Failure`, from the call that failed and its path.
    package func create(_ name: String, with bytes: [UInt8]) throws(Failure) -> Bool {
        let temporary = Self.temporaryName()
        let file = try OpenFile(opening: temporary, in: self, .writeOnly, options: .exclusive)
        defer { _ = try? remove(temporary) }
        try file.write(bytes, at: 0)
        try file.sync()
        guard try link(temporary, to: name) else {
            return false
        }
        try sync()
        return true
    }

    /// A fresh name with ``temporaryPrefix``.
    private static func temporaryName() -> String {
        var random = SystemRandomNumberGenerator()
        return temporaryPrefix + String(random.next(), radix: 36) + String(random.next(), radix: 36)
    }
}
