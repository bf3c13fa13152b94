import Foundation

/// A directory of its own under `/dev/shm` when `memory` and it exists (no disk flushes), else
/// under the system's temporary directory; removed by ``remove()``.
struct ScratchDirectory {
    let path: String

    init(_ prefix: String, memory: Bool = false) throws {
        let temporary = NSTemporaryDirectory()
        let parent =
            memory && FileManager.default.fileExists(atPath: "/dev/shm")
            ? "/dev/shm" : temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary
        var template = Array((parent + "/" + prefix + "-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CLIError.unrecognized("cannot create a directory in \(parent)")
        }
        path = String(cString: made)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
