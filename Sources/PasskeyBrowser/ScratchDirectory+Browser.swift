import BlockingIO

/// A browser run's temporary directory (its profile, Chromium's extension): BlockingIO's one
/// scratch directory, readable by its owner only since the files in it hold the script and its
/// capability, made, written and removed off the concurrency pool with ``BrowserError``s.
extension ScratchDirectory {
    /// Makes a new directory under `$TMPDIR` (`/tmp` when unset).
    ///
    /// - Throws: ``BrowserError`` `file-system`.
    static func forBrowser() async throws(BrowserError) -> ScratchDirectory {
        try await onItsQueue { () throws(BrowserError) in
            do throws(SystemCallError) {
                return try ScratchDirectory("passkey-browser")
            } catch {
                throw BrowserError(.fileSystem, "cannot make a temporary directory: \(error)")
            }
        }
    }

    /// Writes a new file inside the directory, making its parent directories.
    ///
    /// - Parameters:
    ///   - relativePath: the file's path inside the directory, `/`-separated.
    ///   - contents: its bytes.
    /// - Throws: ``BrowserError`` `file-system`.
    func save(_ relativePath: String, _ contents: [UInt8]) async throws(BrowserError) {
        try await Self.onItsQueue { () throws(BrowserError) in
            do throws(SystemCallError) {
                try write(relativePath, contents)
            } catch {
                throw BrowserError(.fileSystem, "cannot write \(error.path): \(error.reason)")
            }
        }
    }

    /// Makes a directory inside this one.
    ///
    /// - Parameter relativePath: its path inside the directory.
    /// - Returns: its absolute path.
    /// - Throws: ``BrowserError`` `file-system`.
    func makeDirectory(_ relativePath: String) async throws(BrowserError) -> String {
        try await Self.onItsQueue { () throws(BrowserError) in
            do throws(SystemCallError) {
                return try directory(relativePath)
            } catch {
                throw BrowserError(.fileSystem, "cannot make \(error.path): \(error.reason)")
            }
        }
    }

    /// Removes the directory and everything in it, trying for up to 2 seconds: a browser's helper
    /// processes may still write to its profile for a moment after the browser has ended.
    func discard() async {
        await Self.onItsQueue { remove(attempts: 10) }
    }

    private static func onItsQueue<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        try await BlockingExecutor(label: "PasskeyBrowser.ScratchDirectory").run(body)
    }
}
