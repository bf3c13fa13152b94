import Foundation

/// The directory a bench works in, this process's own, removed by ``remove()``: under `/dev/shm`
/// when `memory` and it exists (no disk flushes in the figure), else under the system's
/// temporary directory.
struct Scratch {
    let path: String

    init(_ name: String, memory: Bool = false) throws {
        let parent =
            memory && FileManager.default.fileExists(atPath: "/dev/shm")
            ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        path = parent.appendingPathComponent("\(name)-\(ProcessInfo.processInfo.processIdentifier)").path
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
