import Foundation
import Testing
import WebAuthn

@testable import PasskeyAuthenticator

/// The `index.log` record codec: byte-identical round trips, and a torn or damaged record ends
/// the journal instead of being read.
@Suite struct IndexJournalTests {
    static let records: [IndexJournal.Record] = [
        .added(
            CredentialSummary(
                id: Array(0..<16), rpID: "example.com", userHandle: Array(repeating: 7, count: 64),
                userName: "ålice@example.com", createdAt: Date(timeIntervalSince1970: 1_700_000_000.123),
                discoverable: true)),
        .added(
            CredentialSummary(
                id: [1], rpID: "", userHandle: [], userName: "", createdAt: Date(timeIntervalSince1970: -1),
                discoverable: false)),
        .deleted(id: Array(repeating: 0xFF, count: 186)),
        .unreadable(fileName: "AAEC.json"),
    ]

    @Test func crc32IsZlibs() {
        #expect(IndexJournal.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test(arguments: records)
    func aRecordRoundTrips(record: IndexJournal.Record) {
        let bytes = IndexJournal.encode(record)
        var decoded: [IndexJournal.Record] = []
        #expect(IndexJournal.decode(bytes[...]) { decoded.append($0) } == bytes.count)
        #expect(decoded == [record])
        #expect(decoded.map(IndexJournal.encode) == [bytes])
    }

    @Test func everyStrictPrefixOfALastRecordIsIgnored() {
        let first = IndexJournal.encode(Self.records[0])
        let last = IndexJournal.encode(Self.records[2])
        for cut in 0..<last.count {
            var decoded: [IndexJournal.Record] = []
            let intact = IndexJournal.decode((first + last.prefix(cut))[...]) { decoded.append($0) }
            #expect(intact == first.count)
            #expect(decoded == [Self.records[0]])
        }
    }

    @Test(arguments: 0..<records.count, [0, 4, 9])
    func aFlippedBitEndsTheJournalAtThatRecord(damagedRecord: Int, offsetInRecord: Int) {
        let encoded = Self.records.map(IndexJournal.encode)
        let before = encoded.prefix(damagedRecord).map(\.count).reduce(0, +)
        var bytes = encoded.flatMap { $0 }
        bytes[before + offsetInRecord] ^= 0x10
        var decoded: [IndexJournal.Record] = []
        #expect(IndexJournal.decode(bytes[...]) { decoded.append($0) } == before)
        #expect(decoded == Array(Self.records.prefix(damagedRecord)))
    }

    @Test func aForeignFileHasNoEpoch() {
        #expect(IndexJournal.epoch(of: Array("{\"version\":1}".utf8)[...]) == nil)
        let epoch = SecureRandom.bytes(IndexJournal.epochLength)
        #expect(IndexJournal.epoch(of: IndexJournal.header(epoch: epoch)[...]) == epoch)
    }
}
