import Foundation
import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// The file store's index (`index.log` and `.lock`'s index state): whatever happens to the
/// journal, the credential files are the truth, and a damaged or stale journal costs a rebuild,
/// never a credential.
@Suite struct FileCredentialStoreIndexTests {
    /// A store with two credentials of example.com, `a` older than `b`.
    struct TwoCredentials {
        let directory: TemporaryDirectory
        let path: String
        let store: FileCredentialStore
        let a: StoredCredential
        let b: StoredCredential

        init() async throws {
            directory = try TemporaryDirectory()
            path = directory.appending("store")
            store = try await FileCredentialStore(directory: path)
            a = try await makeCredential(in: store, createdAt: Date(timeIntervalSince1970: 1_700_000_000))
            b = try await makeCredential(in: store, createdAt: Date(timeIntervalSince1970: 1_700_000_001))
            try await store.add(a)
            try await store.add(b)
        }

        var journal: String { path + "/index.log" }

        /// Waits until the file system stamps a file with a later time than the store's
        /// credentials directory has, so that a change made now moves that directory's mtime:
        /// the event a settle sleep would guess the length of.
        func waitForTheNextTimestamp() async throws {
            let credentials = path + "/credentials"
            let probe = directory.appending("clock-probe")
            defer { try? FileManager.default.removeItem(atPath: probe) }
            let last = try FileManager.default.attributesOfItem(atPath: credentials)[.modificationDate] as? Date
            while true {
                try Data().write(to: URL(fileURLWithPath: probe))
                let now = try FileManager.default.attributesOfItem(atPath: probe)[.modificationDate] as? Date
                if let now, let last, now > last { return }
                try await Task.sleep(for: .milliseconds(1))
            }
        }

        /// What a fresh process sees.
        func summariesInANewInstance() async throws -> [[UInt8]] {
            try await FileCredentialStore(directory: path).summaries(rpID: "example.com").map(\.id)
        }

        /// Runs `change`, then puts `index.log` and `.lock`'s index state back as they were
        /// before it: what a writer killed between committing its file and recording it leaves.
        func asIfKilledBeforeIndexing(_ change: () async throws -> Void) async throws {
            let journal = try Data(contentsOf: URL(fileURLWithPath: journal))
            let lock = try Data(contentsOf: URL(fileURLWithPath: path + "/.lock"))
            try await change()
            try journal.write(to: URL(fileURLWithPath: self.journal))
            // In place, not by rename: open instances hold `.lock` for flock.
            let handle = try #require(FileHandle(forWritingAtPath: path + "/.lock"))
            try handle.seek(toOffset: 8)
            try handle.write(contentsOf: lock.dropFirst(8))
            try handle.close()
        }
    }

    /// A new instance answers its first question about one RP from that RP's journal records
    /// without building the index: the same answer as an indexed instance, through adds of other
    /// RPs, deletes and an unreadable file's record.
    @Test func aNewInstancesFirstAnswerMatchesTheIndex() async throws {
        let fixture = try await TwoCredentials()
        defer { fixture.directory.remove() }
        let other = try await makeCredential(in: fixture.store, rpID: "other.example")
        let sameUser = try await makeCredential(in: fixture.store, userHandle: fixture.a.userHandle)
        try await fixture.store.add(other)
        try await fixture.store.add(sameUser)
        try await fixture.store.delete(id: fixture.b.id)
        try Data("not json".utf8).write(to: URL(fileURLWithPath: fixture.path + "/credentials/stray.json"))
        let indexed = try await FileCredentialStore(directory: fixture.path)
        _ = try await indexed.summaries(rpID: "nobody.example")  // its first question: the index is built next
        for rpID in ["example.com", "other.example", "nobody.example"] {
            let expected = try await indexed.summaries(rpID: rpID)
            #expect(try await FileCredentialStore(directory: fixture.path).summaries(rpID: rpID) == expected)
            let user = fixture.a.userHandle
            #expect(
                try await FileCredentialStore(directory: fixture.path).summaries(rpID: rpID, userHandle: user)
                    == expected.filter { $0.userHandle == user })
        }
        #expect(try await fixture.summariesInANewInstance() == [sameUser.id, fixture.a.id])
    }

    @Test func aMissingJournalIsRebuiltFromTheFiles() async throws {
        let fixture = try await TwoCredentials()
        defer { fixture.directory.remove() }
        try FileManager.default.removeItem(atPath: fixture.journal)
        #expect(try await fixture.store.summaries(rpID: "example.com").map(\.id) == [fixture.b.id, fixture.a.id])
        #expect(try await fixture.summariesInANewInstance() == [fixture.b.id, fixture.a.id])
        #expect(FileManager.default.fileExists(atPath: fixture.journal), "opening rewrote it")
        #expect(try permissions(fixture.journal) == 0o600)
    }

    @Test(arguments: [1, 5, 30])
    func aJournalTornMidRecordLosesNothing(cut: Int) async throws {
        let fixture = try await TwoCredentials()
        defer { fixture.directory.remove() }
        let reader = try await FileCredentialStore(directory: fixture.path)
        #expect(try await reader.summaries(rpID: "example.com").count == 2)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.journal))
        try bytes.dropLast(cut).write(to: URL(fileURLWithPath: fixture.journal))

        #expect(try await reader.summaries(rpID: "example.com").map(\.id) == [fixture.b.id, fixture.a.id])
        #expect(try await fixture.summariesInANewInstance() == [fixture.b.id, fixture.a.id])
        let c = try await makeCredential(in: fixture.store)
        try await fixture.store.add(c)
        #expect(try await fixture.summariesInANewInstance() == [c.id, fixture.b.id, fixture.a.id])
    }

    @Test func aDamagedRecordMidJournalLosesNothing() async throws {
        let fixture = try await TwoCredentials()
        defer { fixture.directory.remove() }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.journal))
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: fixture.journal))
        #expect(try await fixture.store.summaries(rpID: "example.com").map(\.id) == [fixture.b.id, fixture.a.id])
        #expect(try await fixture.summariesInANewInstance() == [fixture.b.id, fixture.a.id])
    }

    @Test func aFileTheJournalLacksIsReadAndIndexed() async throws {
        let fixture = try await TwoCredentials()
        defer { fixture.directory.remove() }
        let reader = try await FileCredentialStore(directory: fixture.path)
        #expect(try await reader.summaries(rpID: "example.com").count == 2)
        let c = try await makeCredential(in: fixture.store)
        try await fixture.asIfKilledBeforeIndexing { try await fixture.store.add(c) }

        #expect(try await reader.summaries(rpID: "example.com").map(\.id) == [c.id, fixture.b.id, fixture.a.id])
        #expect(try await fixture.summariesInANewInstance() == [c.id, fixture.b.id, fixture.a.id])
        let journal = try Data(contentsOf: URL(fileURLWithPath: fixture.journal))
        #expect(contains(Array(journal), c.id), "opening rewrote the journal with it")
    }

    @Test func anEntryWhoseFileIsGoneIsDropped() async throws {
        let fixture = try await TwoCredentials()
        defer { fixture.directory.remove() }
        let reader = try await FileCredentialStore(directory: fixture.path)
        #expect(try await reader.summaries(rpID: "example.com").count == 2)
        try await fixture.asIfKilledBeforeIndexing { try await fixture.store.delete(id: fixture.b.id) }

        #expect(try await reader.summaries(rpID: "example.com").map(\.id) == [fixture.a.id])
        #expect(try await fixture.summariesInANewInstance() == [fixture.a.id])
        #expect(try await reader.credentials(rpID: "example.com") == StoreListing(credentials: [fixture.a]))
    }

    @Test func filesAddedOrRemovedByHandAreSeen() async throws {
        let fixture = try await TwoCredentials()
        defer { fixture.directory.remove() }
        #expect(try await fixture.store.summaries(rpID: "example.com").count == 2)
        // Directory mtimes may tick coarsely (a jiffy); a hand edit comes after the next tick.
        try await fixture.waitForTheNextTimestamp()
        try FileManager.default.removeItem(atPath: credentialFile(fixture.a.id, store: fixture.path))
        #expect(try await fixture.store.summaries(rpID: "example.com").map(\.id) == [fixture.b.id])
        #expect(try await fixture.summariesInANewInstance() == [fixture.b.id])
    }

    @Test func anUnreadableFileTheJournalLacksStaysReportedByName() async throws {
        let fixture = try await TwoCredentials()
        defer { fixture.directory.remove() }
        let garbage = credentialFile(SecureRandom.bytes(16), store: fixture.path)
        try await fixture.asIfKilledBeforeIndexing {
            try Data("{ not a credential".utf8).write(to: URL(fileURLWithPath: garbage))
        }
        for reader in [fixture.store, try await FileCredentialStore(directory: fixture.path)] {
            #expect(try await reader.summaries(rpID: "example.com").count == 2)
            let listing = try await reader.credentials(rpID: "other.example")
            #expect(listing.credentials.isEmpty)
            #expect(listing.problems.map(\.file) == [garbage])
            #expect(try await reader.credentials(rpID: "example.com").credentials.count == 2)
        }
        try FileManager.default.removeItem(atPath: garbage)
        try await fixture.store.add(try await makeCredential(in: fixture.store))
        #expect(try await FileCredentialStore(directory: fixture.path).credentials(rpID: "x").problems.isEmpty)
    }

    @Test func twoInstancesSeeEachOthersAddsAndDeletes() async throws {
        let fixture = try await TwoCredentials()
        defer { fixture.directory.remove() }
        let second = try await FileCredentialStore(directory: fixture.path)
        #expect(try await second.summaries(rpID: "example.com").count == 2)
        let c = try await makeCredential(in: second, rpID: "other.example")
        try await second.add(c)
        try await fixture.store.delete(id: fixture.a.id)
        #expect(try await fixture.store.summaries(rpID: "other.example") == [CredentialSummary(c)])
        #expect(try await second.summaries(rpID: "example.com").map(\.id) == [fixture.b.id])
        var renamed = fixture.b
        renamed.userName = "bob"
        try await fixture.store.update(renamed)
        #expect(try await second.summaries(rpID: "example.com").map(\.userName) == ["bob"])
    }

    @Test func processesSeeEachOthersAdds() async throws {
        let fixture = try await TwoCredentials()
        defer { fixture.directory.remove() }
        #expect(try await fixture.store.summaries(rpID: "stress.example").isEmpty)
        let lines = try await StressProcess.hammer(fixture.path, adds: 12, increments: 3, sharedID: fixture.a.id)
        let added = Set(lines.compactMap { $0.hasPrefix("added ") ? String($0.dropFirst(6)) : nil })
        #expect(added.count == 12)
        #expect(Set(try await fixture.store.summaries(rpID: "stress.example").map { Base64URL.encode($0.id) }) == added)
        try await fixture.store.delete(id: fixture.a.id)
        #expect(try await fixture.summariesInANewInstance() == [fixture.b.id])
    }

    @Test func aJournalGrownPastItsCredentialsIsCompacted() async throws {
        let fixture = try await TwoCredentials()
        defer { fixture.directory.remove() }
        let reader = try await FileCredentialStore(directory: fixture.path)
        #expect(try await reader.summaries(rpID: "example.com").count == 2)
        var sizes = [try Data(contentsOf: URL(fileURLWithPath: fixture.journal)).count]
        var kept: [StoredCredential] = []
        for round in 0..<60 {
            let credential = try await makeCredential(in: fixture.store)
            try await fixture.store.add(credential)
            if round % 20 == 0 {
                kept.append(credential)
            } else {
                try await fixture.store.delete(id: credential.id)
            }
            sizes.append(try Data(contentsOf: URL(fileURLWithPath: fixture.journal)).count)
        }
        let shrinks = zip(sizes, sizes.dropFirst()).filter { $0.1 < $0.0 / 4 }
        #expect(shrinks.count == 1, "rewritten once, to a quarter or less: \(sizes)")
        let expected = StoreListing(credentials: kept + [fixture.a, fixture.b]).credentials.map(\.id)
        #expect(try await reader.summaries(rpID: "example.com").map(\.id) == expected)
        #expect(try await fixture.summariesInANewInstance() == expected)
    }
}
