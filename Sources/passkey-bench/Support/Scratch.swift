import Foundation
import Synchronization

/// A directory a bench works in, of its own (a process may make several with one name, one per
/// run), removed by ``remove()``: under `/dev/shm` when `memory` and it exists (no disk flushes in
/// the figure), else under the system's temporary directory.
struct Scratch {
    let path: String

    /// How many scratch directories this process has made: each gets its number, so a run never
    /// starts in what an earlier run of the same name left.
    private static let made = Atomic(0)

    init(_ name: String, memory: Bool = false) throws {
        let parent =
            memory && FileManager.default.fileExists(atPath: "/dev/shm")
            ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        let number = Self.made.add(1, ordering: .relaxed).newValue
        path = parent.appendingPathComponent("\(name)-\(ProcessInfo.processInfo.processIdentifier)-\(number)").path
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
