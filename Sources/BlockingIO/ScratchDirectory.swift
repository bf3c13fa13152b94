import FoundationEssentials
import Glibc
import SystemPackage

/// A temporary directory of one run, readable by its owner only (`mkdtemp(3)`: mode 0700, a name
/// no other run has), removed by ``remove(attempts:)``: the package's one scratch directory, for
/// `passkey demo`'s tenant, a browser's profile and extension (`PasskeyBrowser`), and the benches'
/// stores and sockets.
///
/// Under `/dev/shm` when asked for memory and that exists (no disk flush in a bench's figure),
/// else under `$TMPDIR` (`/tmp` when unset). Every call blocks, as ``OpenFile``'s do: an `async`
/// caller makes them on a ``BlockingExecutor``.
package struct ScratchDirectory: Sendable {
    /// The directory's path.
    package let path: String

    /// Makes a new directory `PARENT/PREFIX-XXXXXX`.
    ///
    /// - Parameters:
    ///   - prefix: the start of its name, which says whose it is (`passkey-demo`).
    ///   - memory: under `/dev/shm` when that exists.
    /// - Throws: ``SystemCallError`` `mkdtemp`.
    package init(_ prefix: String, memory: Bool = false) throws(SystemCallError) {
        let parent: String
        if memory, (try? FilePath("/dev/shm").stat())?.type == .directory {
            parent = "/dev/shm"
        } else {
            let temporary = getenv("TMPDIR").map { String(cString: $0) } ?? ""
            parent = temporary.isEmpty ? "/tmp" : temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary
        }
        var template = Array((parent + "/" + prefix + "-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw SystemCallError("mkdtemp", parent, Errno(rawValue: errno))
        }
        path = String(cString: made)
    }

    /// Writes a new file inside the directory (mode 0600), making its parent directories (0700).
    ///
    /// - Parameters:
    ///   - relativePath: the file's path inside the directory, `/`-separated.
    ///   - contents: its bytes.
    /// - Throws: ``SystemCallError``.
    package func write(_ relativePath: String, _ contents: [UInt8]) throws(SystemCallError) {
        let file = path + "/" + relativePath
        if let slash = file.lastIndex(of: "/") {
            try OpenFile<SystemCallError>.makeDirectories(String(file[..<slash]), parentPermissions: 0o700)
        }
        let opened = try OpenFile<SystemCallError>(opening: file, .writeOnly, options: .exclusive)
        try opened.write(contents, at: 0)
    }

    /// Makes a directory inside this one (mode 0700), and its parents.
    ///
    /// - Parameter relativePath: its path inside the directory.
    /// - Returns: its absolute path.
    /// - Throws: ``SystemCallError``.
    package func directory(_ relativePath: String) throws(SystemCallError) -> String {
        let directory = path + "/" + relativePath
        try OpenFile<SystemCallError>.makeDirectories(directory, parentPermissions: 0o700)
        return directory
    }

    /// Removes the directory and everything in it; a failure is left unreported (the directory
    /// is in a temporary place).
    ///
    /// - Parameter attempts: how many times to try, 200 ms apart: a browser's helper processes
    ///   may still write to its profile for a moment after the browser has ended.
    package func remove(attempts: Int = 1) {
        for attempt in 1...max(attempts, 1) {
            guard (try? FileManager.default.removeItem(atPath: path)) == nil, attempt < attempts else { return }
            usleep(200_000)
        }
    }
}
