import BlockingIO
import FoundationEssentials
import Glibc

/// A temporary directory of a browser run (its profile, Chromium's extension), readable by its
/// owner only (`mkdtemp(3)`: mode 0700), since the files in it hold the script and its
/// capability. Made, written and removed off the concurrency pool.
struct ScratchDirectory: Sendable {
    /// The directory's path.
    let path: String
    private let executor: BlockingExecutor

    /// Makes a new directory under `$TMPDIR` (`/tmp` when unset).
    ///
    /// - Throws: ``BrowserError`` `file-system`.
    static func make() async throws(BrowserError) -> ScratchDirectory {
        let executor = BlockingExecutor(label: "PasskeyBrowser.ScratchDirectory")
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let path = try await executor.run { () throws(BrowserError) -> String in
            var template = Array((base + "/passkey-browser-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else {
                throw BrowserError(.fileSystem, "cannot make a temporary directory in \(base): errno \(errno)")
            }
            return String(cString: made)
        }
        return ScratchDirectory(path: path, executor: executor)
    }

    /// Writes a file inside the directory, making its parent directories.
    ///
    /// - Parameters:
    ///   - relativePath: the file's path inside the directory, `/`-separated.
    ///   - contents: its bytes.
    /// - Throws: ``BrowserError`` `file-system`.
    func write(_ relativePath: String, _ contents: [UInt8]) async throws(BrowserError) {
        let file = path + "/" + relativePath
        try await executor.run { () throws(BrowserError) in
            do {
                let parent = String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
                try Data(contents).write(to: URL(fileURLWithPath: file))
            } catch {
                throw BrowserError(.fileSystem, "cannot write \(file): \(error)")
            }
        }
    }

    /// Makes a directory inside this one.
    ///
    /// - Parameter relativePath: its path inside the directory.
    /// - Returns: its absolute path.
    /// - Throws: ``BrowserError`` `file-system`.
    func directory(_ relativePath: String) async throws(BrowserError) -> String {
        let directory = path + "/" + relativePath
        try await executor.run { () throws(BrowserError) in
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw BrowserError(.fileSystem, "cannot make \(directory): \(error)")
            }
        }
        return directory
    }

    /// Removes the directory and everything in it. A browser's helper processes may still write
    /// to its profile for a moment after the browser has ended, so a failed removal is tried again,
    /// for up to 2 seconds; a last failure is left unreported (the directory is in `$TMPDIR`).
    func remove() async {
        let path = path
        await executor.run {
            for _ in 0..<10 {
                guard (try? FileManager.default.removeItem(atPath: path)) == nil else { return }
                usleep(200_000)
            }
        }
    }
}
