import Foundation
import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// Several writers on one store: processes (the `store-stress` helper), instances in one process,
/// a writer killed mid-run, and a full disk.
@Suite struct FileCredentialStoreConcurrencyTests {
    @Test(.temporaryDirectory) func processesLoseNoAddAndShareNoCounterValue() async throws {
        let (path, store, shared) = try await fileStoreWithACredential(rpID: "stress.example")
        let (children, adds, increments) = (4, 10, 25)

        let sharedID = shared.id
        let outputs = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<children {
                group.addTask {
                    try await StressProcess.hammer(path, adds: adds, increments: increments, sharedID: sharedID)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        var added: [String] = []
        var counters: [UInt32] = []
        for lines in outputs {
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
    @Test(.temporaryDirectory) func instancesInOneProcessShareNoCounterValue() async throws {
        let (path, first, shared) = try await fileStoreWithACredential()
        let counters = try await withThrowingTaskGroup(of: [UInt32].self) { group in
            for _ in 0..<4 {
                let store = try await FileCredentialStore(directory: path)
                group.addTask {
                    var values: [UInt32] = []
                    for _ in 0..<20 {
                        values.append(try await store.incrementCounter(id: shared.id))
                        try await store.add(try await makeCredential(in: store))
                    }
                    return values
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(counters.sorted() == Array(1...80))
        #expect(try await first.credentials(rpID: "example.com").credentials.count == 81)
    }

    @Test(.temporaryDirectory) func everyCredentialAKilledWriterReportedIsReadable() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        let shared = try await makeCredential(in: try await FileCredentialStore(directory: path))
        let reported = try await StressProcess.hammer(
            path, adds: 100_000, increments: 0, sharedID: shared.id, killedAfterLines: 15)
        #expect(reported.count >= 15)

        let store = try await FileCredentialStore(directory: path)
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

    @Test(.temporaryDirectory, .enabled("needs root to mount a 64 KiB tmpfs") { await TinyFileSystem.isAvailable })
    func aFullDiskLeavesTheLastCommittedStateIntact() async throws {
        let directory = try TemporaryDirectory.current
        try await TinyFileSystem.mounted(at: directory.appending("tiny")) { mount in
            let path = mount.path + "/store"
            let store = try await FileCredentialStore(directory: path)
            var stored: [StoredCredential] = []
            var failure: StoreError?
            for _ in 0..<64 {
                let credential = try await makeCredential(in: store)
                do {
                    try await store.add(credential)
                    stored.append(credential)
                } catch let error as StoreError {
                    failure = error
                    #expect(try await store.credential(id: credential.id) == nil)
                    break
                }
            }
            #expect(failure?.code == .diskFull)
            #expect(!stored.isEmpty)
            #expect(try await store.all() == StoreListing(credentials: stored))
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: path + "/credentials").allSatisfy {
                    !$0.hasPrefix(".")
                }
            )

            try await store.delete(id: stored[0].id)
            try await store.add(try await makeCredential(in: store))
            let reopened = try await FileCredentialStore(directory: path)
            #expect(try await reopened.all().credentials.count == stored.count)
        }
    }
}

/// The `store-stress hammer` helper as a child process: it adds credentials to a store, then
/// increments a shared counter, printing an `added ID` or `counter N` line as each is durable.
enum StressProcess {
    /// Runs the helper to its end and returns its output lines.
    static func hammer(_ store: String, adds: Int, increments: Int, sharedID: [UInt8]) async throws -> [String] {
        let result = try await ChildProcess.run(
            ChildProcess.built("store-stress"), arguments(store, adds: adds, increments: increments, sharedID: sharedID)
        )
        guard result.status == 0 else {
            throw StoreError(.io, "store-stress exited with \(result.status ?? -1): \(result.stderr)")
        }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// Starts the helper, sends SIGKILL once it has printed `count` lines, and returns every
    /// complete line it printed.
    static func hammer(
        _ store: String, adds: Int, increments: Int, sharedID: [UInt8], killedAfterLines count: Int
    ) async throws -> [String] {
        let process = try await ChildProcess.start(
            ChildProcess.built("store-stress"),
            arguments(store, adds: adds, increments: increments, sharedID: sharedID),
            readyWhen: { output in output.count(where: { $0 == "\n" }) >= count })
        process.send(SIGKILL)
        let text = try await process.wait().stdout
        return text.split(separator: "\n", omittingEmptySubsequences: true).dropLast(text.hasSuffix("\n") ? 0 : 1)
            .map(String.init)
    }

    private static func arguments(_ store: String, adds: Int, increments: Int, sharedID: [UInt8]) -> [String] {
        ["hammer", store, "\(adds)", "\(increments)", Base64URL.encode(sharedID)]
    }
}
