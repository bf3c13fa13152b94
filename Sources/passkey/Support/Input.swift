import Foundation

/// Reads a command's input: a file, or standard input for `-`.
enum Input {
    /// The bytes of `path`, or of standard input when `path` is `-`.
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" {
            return Array(FileHandle.standardInput.readDataToEndOfFile())
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.unreadable(path)
        }
        return Array(data)
    }
}
