import Foundation
import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// The `CredentialStore` contract, for every implementation.
@Suite struct CredentialStoreTests {
    @Test(.temporaryDirectory, arguments: Backend.allCases)
    func addGetListUpdateDelete(kind: Backend) async throws {
        let store = try await kind.open()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let oldest = try await makeCredential(in: store, createdAt: start)
        let newest = try await makeCredential(in: store, createdAt: start + 2)
        let other = try await makeCredential(in: store, rpID: "other.example", createdAt: start + 1)
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

    @Test(.temporaryDirectory, arguments: Backend.importingKeys)
    func storedKeysSignAndPRFSeedsOpen(kind: Backend) async throws {
        let store = try await kind.open()
        for algorithm in [COSEAlgorithm.es256, .eddsa] {
            let credential = try await makeCredential(in: store, key: SigningKey.generate(algorithm))
            try await store.add(credential)
            let stored = try #require(try await store.credential(id: credential.id))
            #expect(stored.algorithm == algorithm)
            #expect(try await signs(store, with: stored))
            let salt = SecureRandom.bytes(32)
            let withUV = try #require(try await store.hmacSecret([salt], with: stored, userVerified: true))
            let withoutUV = try #require(try await store.hmacSecret([salt], with: stored, userVerified: false))
            #expect(withUV.map(\.count) == [32] && withoutUV.map(\.count) == [32])
            #expect(withUV != withoutUV, "the two seeds differ (CTAP 2.1 §12.5)")
            #expect(try await store.hmacSecret([salt], with: stored, userVerified: true) == withUV)
        }
        // A record without seeds (made before the store kept them) has no hmac-secret output.
        let made = try await store.makeKey(
            CredentialKeyRequest(credentialID: [7], rpID: "example.com", algorithm: .es256))
        let plain = try StoredCredential(
            id: [7], rpID: "example.com", userHandle: [1], userName: "a", userDisplayName: "A",
            key: CredentialKey(algorithm: .es256, publicKey: made.publicKey, privateKeyBlob: made.privateKeyBlob),
            profile: "platform", backupEligible: true, backupState: true, discoverable: true, createdAt: Date())
        #expect(try await store.hmacSecret([SecureRandom.bytes(32)], with: plain, userVerified: true) == nil)
    }

    @Test(.temporaryDirectory, arguments: Backend.allCases)
    func summariesListOneRPNewestFirstTiesByID(kind: Backend) async throws {
        let store = try await kind.open()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let oldest = try await makeCredential(in: store, createdAt: start)
        var tied: [StoredCredential] = []
        for _ in 0..<3 {
            tied.append(try await makeCredential(in: store, createdAt: start + 5))
        }
        let other = try await makeCredential(in: store, rpID: "other.example", createdAt: start + 9)
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

    @Test(.temporaryDirectory, arguments: Backend.allCases)
    func duplicateIDIsRefusedAndTheStoreIsUnchanged(kind: Backend) async throws {
        let store = try await kind.open()
        let original = try await makeCredential(in: store)
        try await store.add(original)
        let impostor = try await makeCredential(in: store, id: original.id, rpID: "evil.example")
        await #expect(throws: StoreError(.duplicate, "")) { try await store.add(impostor) }
        #expect(try await store.credential(id: original.id) == original)
        #expect(try await store.all() == StoreListing(credentials: [original]))
        #expect(try await store.credentials(rpID: "evil.example").credentials.isEmpty)
    }

    /// `summaries(rpID:userHandle:)` is `summaries(rpID:)` narrowed to one user, newest first,
    /// through adds, updates and deletes.
    @Test(.temporaryDirectory, arguments: Backend.allCases)
    func summariesOfOneUser(kind: Backend) async throws {
        let store = try await kind.open()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        var credentials: [StoredCredential] = []
        for (index, (rpID, user)) in [("a.example", 1), ("a.example", 2), ("a.example", 1), ("b.example", 1)]
            .enumerated()
        {
            let credential = try await makeCredential(
                in: store, rpID: rpID, userHandle: [UInt8(user)], createdAt: start + Double(index))
            credentials.append(credential)
            try await store.add(credential)
        }
        func ids(_ rpID: String, _ user: UInt8) async throws -> [[UInt8]] {
            let narrowed = try await store.summaries(rpID: rpID, userHandle: [user])
            let filtered = try await store.summaries(rpID: rpID).filter { $0.userHandle == [user] }
            #expect(narrowed == filtered)
            return narrowed.map(\.id)
        }
        #expect(try await ids("a.example", 1) == [credentials[2].id, credentials[0].id])
        #expect(try await ids("a.example", 2) == [credentials[1].id])
        #expect(try await ids("b.example", 1) == [credentials[3].id])
        #expect(try await ids("b.example", 2).isEmpty)

        var renamed = credentials[0]
        renamed.userName = "alice.renamed"
        try await store.update(renamed)
        #expect(try await ids("a.example", 1) == [credentials[2].id, credentials[0].id])
        try await store.delete(id: credentials[2].id)
        try await store.delete(id: credentials[0].id)
        #expect(try await ids("a.example", 1).isEmpty)
        #expect(try await ids("a.example", 2) == [credentials[1].id])
    }

    @Test(.temporaryDirectory, arguments: Backend.allCases)
    func incrementCounterStrictlyIncreases(kind: Backend) async throws {
        let store = try await kind.open()
        let credential = try await makeCredential(in: store)
        try await store.add(credential)
        var values: [UInt32] = []
        for _ in 0..<5 {
            values.append(try await store.incrementCounter(id: credential.id))
        }
        #expect(values == [1, 2, 3, 4, 5])
        #expect(try await store.credential(id: credential.id)?.signCount == 5)
    }

    @Test(.temporaryDirectory, arguments: Backend.allCases)
    func aCredentialSealedUnderAnotherKeyIsRefused(kind: Backend) async throws {
        let store = try await kind.open()
        let foreign = try await makeCredential(in: InMemoryCredentialStore())
        await #expect(throws: StoreError(.invalidCredential, "")) { try await store.add(foreign) }
        #expect(try await store.all().credentials.isEmpty)
    }
}
