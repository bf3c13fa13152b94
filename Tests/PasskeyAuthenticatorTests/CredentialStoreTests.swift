import Foundation
import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// The `CredentialStore` contract, for every implementation.
@Suite struct CredentialStoreTests {
    @Test(arguments: StoreKind.allCases)
    func addGetListUpdateDelete(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try kind.open(in: directory)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let oldest = try makeCredential(in: store, createdAt: start)
        let newest = try makeCredential(in: store, createdAt: start + 2, withPRF: true)
        let other = try makeCredential(in: store, rpID: "other.example", createdAt: start + 1)
        for credential in [oldest, newest, other] {
            try await store.add(credential)
        }

        #expect(try await store.credential(id: oldest.id) == oldest)
        #expect(try await store.credential(id: SecureRandom.bytes(16)) == nil)
        #expect(try await store.credentials(rpID: "example.com") == StoreListing(credentials: [newest, oldest]))
        #expect(try await store.credentials(rpID: "example.com").credentials.map(\.id) == [newest.id, oldest.id])
        #expect(try await store.credentials(rpID: "nobody.example").credentials.isEmpty)
        #expect(try await store.all().credentials.map(\.id) == [newest.id, other.id, oldest.id])

        var renamed = oldest
        renamed.userName = "alice.renamed"
        renamed.backupState = false
        try await store.update(renamed)
        #expect(try await store.credential(id: oldest.id) == renamed)

        try await store.delete(id: other.id)
        #expect(try await store.credential(id: other.id) == nil)
        #expect(try await store.credentials(rpID: "other.example").credentials.isEmpty)
        #expect(try await store.all().credentials.count == 2)
        await #expect(throws: StoreError(.notFound, "")) { try await store.delete(id: other.id) }
        await #expect(throws: StoreError(.notFound, "")) { try await store.update(other) }
        await #expect(throws: StoreError(.notFound, "")) { try await store.incrementCounter(id: other.id) }
    }

    @Test(arguments: StoreKind.allCases)
    func storedKeysSignAndPRFSeedsOpen(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try kind.open(in: directory)
        for algorithm in [COSEAlgorithm.es256, .eddsa] {
            let credential = try makeCredential(in: store, key: SigningKey.generate(algorithm), withPRF: true)
            try await store.add(credential)
            let stored = try #require(try await store.credential(id: credential.id))
            let key = try stored.privateKey(using: store.sealingKey)
            let signature = try key.signature(for: [1, 2, 3])
            #expect(stored.algorithm == algorithm)
            #expect(try stored.publicKey.isValidSignature(signature, for: [1, 2, 3]))
            #expect(try stored.prfSecret(userVerified: true, using: store.sealingKey) != nil)
            #expect(try stored.prfSecret(userVerified: false, using: store.sealingKey) != nil)
        }
        let plain = try makeCredential(in: store)
        #expect(try plain.prfSecret(userVerified: true, using: store.sealingKey) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func summariesListOneRPNewestFirstTiesByID(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try kind.open(in: directory)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let oldest = try makeCredential(in: store, createdAt: start)
        let tied = try (0..<3).map { _ in try makeCredential(in: store, createdAt: start + 5) }
        let other = try makeCredential(in: store, rpID: "other.example", createdAt: start + 9)
        for credential in [oldest, other] + tied {
            try await store.add(credential)
        }
        let expected = StoreListing(credentials: tied + [oldest]).credentials.map(CredentialSummary.init)
        #expect(try await store.summaries(rpID: "example.com") == expected)
        #expect(expected.map(\.id).prefix(3) == tied.map(\.id).sorted { $0.lexicographicallyPrecedes($1) }[...])
        #expect(try await store.summaries(rpID: "other.example") == [CredentialSummary(other)])
        #expect(try await store.summaries(rpID: "nobody.example").isEmpty)

        var renamed = oldest
        renamed.userName = "alice.renamed"
        try await store.update(renamed)
        try await store.delete(id: tied[0].id)
        #expect(
            try await store.summaries(rpID: "example.com").map(\.id) == expected.map(\.id).filter { $0 != tied[0].id })
        #expect(try await store.summaries(rpID: "example.com").last?.userName == "alice.renamed")
    }

    @Test(arguments: StoreKind.allCases)
    func duplicateIDIsRefusedAndTheStoreIsUnchanged(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try kind.open(in: directory)
        let original = try makeCredential(in: store)
        try await store.add(original)
        let impostor = try makeCredential(in: store, id: original.id, rpID: "evil.example")
        await #expect(throws: StoreError(.duplicate, "")) { try await store.add(impostor) }
        #expect(try await store.credential(id: original.id) == original)
        #expect(try await store.all() == StoreListing(credentials: [original]))
        #expect(try await store.credentials(rpID: "evil.example").credentials.isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func incrementCounterStrictlyIncreases(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try kind.open(in: directory)
        let credential = try makeCredential(in: store)
        try await store.add(credential)
        var values: [UInt32] = []
        for _ in 0..<5 {
            values.append(try await store.incrementCounter(id: credential.id))
        }
        #expect(values == [1, 2, 3, 4, 5])
        #expect(try await store.credential(id: credential.id)?.signCount == 5)
    }

    @Test(arguments: StoreKind.allCases)
    func aCredentialSealedUnderAnotherKeyIsRefused(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try kind.open(in: directory)
        let foreign = try makeCredential(in: InMemoryCredentialStore())
        await #expect(throws: StoreError(.invalidCredential, "")) { try await store.add(foreign) }
        #expect(try await store.all().credentials.isEmpty)
    }
}
