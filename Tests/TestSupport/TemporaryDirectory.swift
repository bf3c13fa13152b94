import Foundation

/// A fresh directory of one test under the system's temporary directory (STYLE §7: tests run in
/// parallel, each in a directory of its own); ``remove()`` it in a `defer`.
public struct TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Creates a new, empty directory named `prefix-XXXXXX`, readable by this user only.
    ///
    /// - Parameter prefix: the start of the directory's name, to tell leftovers apart.
    /// - Throws: `EIO` when the directory cannot be made.
    public init(prefix: String = "passkey-test") throws {
        let temporary = FileManager.default.temporaryDirectory.path
        var template = Array((temporary + "/" + prefix + "-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw POSIXError(.EIO)
        }
        path = String(cString: made)
    }

    /// A path inside the directory.
    ///
    /// - Parameter name: a name, or a relative path.
    /// - Returns: `path/name`.
    public func appending(_ name: String) -> String {
        path + "/" + name
    }

    /// Writes a file in the directory.
    ///
    /// - Parameters:
    ///   - name: the file's name.
    ///   - text: its contents, as UTF-8.
    /// - Returns: the file's path.
    @discardableResult
    public func write(_ name: String, _ text: String) -> String {
        let file = appending(name)
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        return file
    }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
