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

    /// Creates many new files in this directory, durably, with one wait for the disk for all of
    /// them: each is written in full under a temporary name, the file system is flushed once
    /// (``syncFilesystem()``), so every content is on disk before any name points at it; then
    /// each is renamed to its name and the directory is `fsync`ed. A crash at any instant leaves
    /// each file whole or absent (never torn), as ``replace(_:with:)`` does for one.
    ///
    /// The names must be new: the caller checks, under the lock that keeps other writers out,
    /// that none exists, since a rename replaces.
    ///
    /// - Parameter files: the names and contents.
    /// - Throws: `Failure`, from the call that failed and its path. Before the renames, nothing
    ///   is left; when a rename fails, the files renamed before it are removed again; when only
    ///   the directory's `fsync` fails, the files are in place but may not survive a crash.
    package func createAll(_ files: [(name: String, bytes: [UInt8])]) throws(Failure) {
        var temporaries: [String] = []
        temporaries.reserveCapacity(files.count)
        do throws(Failure) {
            for file in files {
                let temporary = Self.temporaryName()
                let opened = try OpenFile(opening: temporary, in: self, .writeOnly, options: .exclusive)
                temporaries.append(temporary)
                try opened.write(file.bytes, at: 0)
            }
            try syncFilesystem()
        } catch {
            for temporary in temporaries { _ = try? remove(temporary) }
            throw error
        }
        for (position, file) in files.enumerated() {
            do throws(Failure) {
                try rename(temporaries[position], to: file.name)
            } catch {
                for temporary in temporaries[position...] { _ = try? remove(temporary) }
                for renamed in files[..<position] { _ = try? remove(renamed.name) }
                throw error
            }
        }
        try sync()
    }

    /// A fresh name with ``temporaryPrefix``.
    private static func temporaryName() -> String {
        var random = SystemRandomNumberGenerator()
        return temporaryPrefix + String(random.next(), radix: 36) + String(random.next(), radix: 36)
    }
}
