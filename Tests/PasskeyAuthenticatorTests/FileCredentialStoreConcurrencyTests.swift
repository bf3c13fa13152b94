import Foundation
import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// Several writers on one store: processes (the `store-stress` helper), instances in one process,
/// a writer killed mid-run, and a full disk.
@Suite struct FileCredentialStoreConcurrencyTests {
    @Test func processesLoseNoAddAndShareNoCounterValue() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("store")
        let store = try FileCredentialStore(directory: path)
        let shared = try makeCredential(in: store, rpID: "stress.example")
        try await store.add(shared)
        let (children, adds, increments) = (4, 10, 25)

        let processes = try (0..<children).map { _ in
            try StressProcess(path, adds: adds, increments: increments, sharedID: shared.id)
        }
        var added: [String] = []
        var counters: [UInt32] = []
        for process in processes {
            let lines = try process.finish()
            added += lines.compactMap { $0.hasPrefix("added ") ? String($0.dropFirst(6)) : nil }
            counters += lines.compactMap { $0.hasPrefix("counter ") ? UInt32($0.dropFirst(8)) : nil }
        }

        #expect(added.count == children * adds)
        #expect(counters.count == children * increments)
        #expect(Set(counters) == Set(1...UInt32(children * increments)), "every value exactly once")
        let listing = try await store.credentials(rpID: "stress.example")
        #expect(listing.problems.isEmpty)
        #expect(Set(listing.credentials.map { Base64URL.encode($0.id) }) == Set(added + [Base64URL.encode(shared.id)]))
        #expect(try await store.credential(id: shared.id)?.signCount == UInt32(children * increments))
    }

    /// Instances in one process each hold their own `.lock` descriptor, and flock locks belong to
    /// the open file description, so this runs the same lock path as separate processes.
    @Test func instancesInOneProcessShareNoCounterValue() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("store")
        let first = try FileCredentialStore(directory: path)
        let shared = try makeCredential(in: first)
        try await first.add(shared)
        let counters = try await withThrowingTaskGroup(of: [UInt32].self) { group in
            for _ in 0..<4 {
                let store = try FileCredentialStore(directory: path)
                group.addTask {
                    var values: [UInt32] = []
                    for _ in 0..<20 {
                        values.append(try await store.incrementCounter(id: shared.id))
                        try await store.add(try makeCredential(in: store))
                    }
                    return values
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(counters.sorted() == Array(1...80))
        #expect(try await first.credentials(rpID: "example.com").credentials.count == 81)
    }

    @Test func everyCredentialAKilledWriterReportedIsReadable() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("store")
        let shared = try makeCredential(in: try FileCredentialStore(directory: path))
        let process = try StressProcess(path, adds: 100_000, increments: 0, sharedID: shared.id)
        let reported = try process.kill(afterLines: 15)
        #expect(reported.count >= 15)

        let store = try FileCredentialStore(directory: path)
        let listing = try await store.all()
        #expect(listing.problems.isEmpty)
        for line in reported {
            let id = try Base64URL.decode(String(line.dropFirst("added ".count)))
            #expect(try await store.credential(id: id) != nil, "\(line)")
        }
        #expect(listing.credentials.count >= reported.count)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: path + "/credentials")
            .filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test(.enabled(if: TinyFileSystem.isAvailable, "needs root to mount a 64 KiB tmpfs"))
    func aFullDiskLeavesTheLastCommittedStateIntact() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let mount = try TinyFileSystem(at: directory.appending("tiny"))
        defer { mount.unmount() }
        let path = mount.path + "/store"
        let store = try FileCredentialStore(directory: path)
        var stored: [StoredCredential] = []
        var failure: StoreError?
        for _ in 0..<64 {
            let credential = try makeCredential(in: store)
            do {
                try await store.add(credential)
                stored.append(credential)
            } catch {
                failure = error
                #expect(try await store.credential(id: credential.id) == nil)
                break
            }
        }
        #expect(failure?.code == .diskFull)
        #expect(!stored.isEmpty)
        #expect(try await store.all() == StoreListing(credentials: stored))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: path + "/credentials").allSatisfy { !$0.hasPrefix(".") }
        )

        try await store.delete(id: stored[0].id)
        try await store.add(try makeCredential(in: store))
        let reopened = try FileCredentialStore(directory: path)
        #expect(try await reopened.all().credentials.count == stored.count)
    }
}

/// One `store-stress hammer` child process.
struct StressProcess {
    private let process = Process()
    private let output = Pipe()

    init(_ store: String, adds: Int, increments: Int, sharedID: [UInt8]) throws {
        process.executableURL = Self.executable
        process.arguments = ["hammer", store, "\(adds)", "\(increments)", Base64URL.encode(sharedID)]
        process.standardOutput = output
        try process.run()
    }

    /// Waits for the child to exit and returns its output lines.
    func finish() throws -> [String] {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw StoreError(.io, "store-stress exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Sends SIGKILL once the child has printed `count` lines, and returns every complete line
    /// it printed.
    func kill(afterLines count: Int) throws -> [String] {
        var data = Data()
        while data.count(where: { $0 == UInt8(ascii: "\n") }) < count {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            data += chunk
        }
        Foundation.kill(process.processIdentifier, SIGKILL)
        data += output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: true).dropLast(text.hasSuffix("\n") ? 0 : 1)
            .map(String.init)
    }

    /// The helper, built next to the test bundle by `swift build --build-tests`.
    private static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "store-stress")
    }
}

/// A 64 KiB tmpfs mounted for one test, to make `ENOSPC` cheaply.
struct TinyFileSystem {
    let path: String

    init(at path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", path]) else {
            throw StoreError(.io, "mount failed", file: path)
        }
        self.path = path
    }

    func unmount() {
        _ = Self.run("/bin/umount", [path])
    }

    /// Whether this process may mount file systems (root, and mount works here).
    static var isAvailable: Bool {
        guard geteuid() == 0, let probe = try? TemporaryDirectory() else {
            return false
        }
        defer { probe.remove() }
        guard let mount = try? TinyFileSystem(at: probe.appending("probe")) else {
            return false
        }
        mount.unmount()
        return true
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
