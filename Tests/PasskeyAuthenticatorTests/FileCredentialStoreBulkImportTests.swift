import Foundation
import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// The file store's bulk path, ``FileCredentialStore/add(contentsOf:)``: what it stores reads back
/// in a new instance, through its index and without it; a duplicate or a foreign record is
/// refused with a typed error, storing none of the batch and changing nothing already there.
@Suite struct FileCredentialStoreBulkImportTests {
    /// `count` new credentials of `store`, spread over three RPs.
    static func batch(_ count: Int, in store: FileCredentialStore) async throws -> [StoredCredential] {
        var credentials: [StoredCredential] = []
        for index in 0..<count {
            credentials.append(try await makeCredential(in: store, rpID: "rp\(index % 3).example"))
        }
        return credentials
    }

    @Test(.temporaryDirectory) func aBulkImportReadsBackInANewInstance() async throws {
        let (path, store, existing) = try await fileStoreWithACredential(rpID: "rp0.example")
        let imported = try await Self.batch(30, in: store)
        try await store.add(contentsOf: imported)

        let reopened = try await FileCredentialStore(directory: path)
        for credential in imported {
            #expect(try await reopened.credential(id: credential.id) == credential)
        }
        #expect(try await signs(reopened, with: try #require(imported.first)))
        let listing = try await reopened.all()
        #expect(listing.problems.isEmpty)
        #expect(Set(listing.credentials) == Set(imported + [existing]))
        #expect(try await reopened.credential(id: existing.id) == existing)
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: path + "/credentials")).contains { $0.hasPrefix(".") }
        )
    }

    /// The batch's records are in the journal: a new instance's first answer (from the journal,
    /// without an index), an indexed instance's next one (the journal's tail), and an instance
    /// that rebuilds a lost journal from the directory all list it.
    @Test(.temporaryDirectory) func aBulkImportIsInTheIndex() async throws {
        let (path, store, existing) = try await fileStoreWithACredential(rpID: "rp0.example")
        let indexed = try await FileCredentialStore(directory: path)
        #expect(try await indexed.summaries(rpID: "rp1.example").isEmpty)
        #expect(try await indexed.summaries(rpID: "rp1.example").isEmpty)  // the index is built now
        let imported = try await Self.batch(30, in: store)
        try await store.add(contentsOf: imported)
        let expected = { (rpID: String) in Set(imported.filter { $0.rpID == rpID }.map(\.id)) }

        for rpID in ["rp0.example", "rp1.example", "rp2.example"] {
            let extra: Set<[UInt8]> = rpID == "rp0.example" ? [existing.id] : []
            let fresh = try await FileCredentialStore(directory: path)
            #expect(Set(try await fresh.summaries(rpID: rpID).map(\.id)) == expected(rpID).union(extra))
            #expect(Set(try await indexed.summaries(rpID: rpID).map(\.id)) == expected(rpID).union(extra))
            #expect(Set(try await store.summaries(rpID: rpID).map(\.id)) == expected(rpID).union(extra))
        }

        try FileManager.default.removeItem(atPath: path + "/index.log")
        let rebuilt = try await FileCredentialStore(directory: path)
        #expect(Set(try await rebuilt.summaries(rpID: "rp2.example").map(\.id)) == expected("rp2.example"))
        // Changes after the import keep the journal whole.
        let later = try await makeCredential(in: store, rpID: "rp2.example")
        try await store.add(later)
        try await store.delete(id: imported[2].id)
        let last = try await FileCredentialStore(directory: path)
        #expect(
            Set(try await last.summaries(rpID: "rp2.example").map(\.id))
                == expected("rp2.example").subtracting([imported[2].id]).union([later.id]))
    }

    /// A batch holding a stored ID, or one ID twice, is refused as a duplicate before anything is
    /// written: the store's files are byte for byte as they were, but for `.lock`'s change count.
    @Test(.temporaryDirectory) func duplicatesAreRefusedAndNothingIsLost() async throws {
        let (path, store, existing) = try await fileStoreWithACredential()
        let fresh = try await Self.batch(5, in: store)
        let before = try filesBelow(path).filter { !$0.path.hasSuffix("/.lock") }

        let withStored = fresh + [existing]
        await #expect(throws: StoreError(.duplicate, "")) { try await store.add(contentsOf: withStored) }
        let twice = fresh + [fresh[0]]
        await #expect(throws: StoreError(.duplicate, "")) { try await store.add(contentsOf: twice) }

        let after = try filesBelow(path).filter { !$0.path.hasSuffix("/.lock") }
        #expect(after.map(\.path).sorted() == before.map(\.path).sorted())
        #expect(
            Dictionary(uniqueKeysWithValues: after.map { ($0.path, $0.bytes) })
                == Dictionary(uniqueKeysWithValues: before.map { ($0.path, $0.bytes) }))
        let reopened = try await FileCredentialStore(directory: path)
        #expect(try await reopened.all().credentials == [existing])
        #expect(try await reopened.credential(id: fresh[0].id) == nil)
        // The refused batch, without the duplicate, goes in whole.
        try await store.add(contentsOf: fresh)
        #expect(Set(try await reopened.all().credentials) == Set(fresh + [existing]))
    }

    /// A record whose blobs another store sealed is refused as `add` refuses it, and none of its
    /// batch is stored.
    @Test(.temporaryDirectory) func aForeignRecordIsRefusedWithItsBatch() async throws {
        let (path, store, existing) = try await fileStoreWithACredential()
        let other = try await FileCredentialStore(directory: try TemporaryDirectory.current.appending("other"))
        let foreign = try await makeCredential(in: other)
        let batch = try await Self.batch(3, in: store) + [foreign]
        await #expect(throws: StoreError(.invalidCredential, "")) { try await store.add(contentsOf: batch) }
        #expect(try await FileCredentialStore(directory: path).all().credentials == [existing])
    }
}
