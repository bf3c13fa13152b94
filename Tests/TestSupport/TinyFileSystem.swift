import Foundation

/// A 64 KiB tmpfs mounted for one test, to make `ENOSPC` cheaply.
public struct TinyFileSystem: Sendable {
    /// Where it is mounted.
    public let path: String

    /// Mounts a tmpfs at `path`, runs `body` with it, and unmounts it.
    public static func mounted<T>(at path: String, _ body: (TinyFileSystem) async throws -> T) async throws -> T {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard await run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", path]) else {
            throw MountFailure(path: path)
        }
        let value: T
        do {
            value = try await body(TinyFileSystem(path: path))
        } catch {
            _ = await run("/bin/umount", [path])
            throw error
        }
        _ = await run("/bin/umount", [path])
        return value
    }

    /// Whether this process may mount file systems (root, and mount works here).
    public static var isAvailable: Bool {
        get async {
            guard geteuid() == 0, let probe = try? TemporaryDirectory() else {
                return false
            }
            defer { probe.remove() }
            return (try? await mounted(at: probe.appending("probe")) { _ in }) != nil
        }
    }

    private static func run(_ tool: String, _ arguments: [String]) async -> Bool {
        (try? await ChildProcess.run(tool, arguments))?.status == 0
    }
}

/// `mount` failed.
public struct MountFailure: Error, CustomStringConvertible {
    /// Where it was to be mounted.
    public let path: String

    public var description: String { "mount of a tmpfs at \(path) failed" }
}
