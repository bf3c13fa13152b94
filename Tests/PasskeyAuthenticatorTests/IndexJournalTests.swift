import Foundation
import Testing
import WebAuthn

@testable import PasskeyAuthenticator

/// The `index.log` record codec: byte-identical round trips, and a torn or damaged record ends
/// the journal instead of being read; one RP's scan agrees with the whole journal.
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

    /// A journal of two RPs' credentials: added, replaced, deleted, and a file that did not read.
    static let history: [IndexJournal.Record] = [
        .added(summary(1, "a.example")), .added(summary(2, "b.example")), .added(summary(3, "a.example")),
        .unreadable(fileName: "AAEC.json"), .deleted(id: [1]), .added(summary(4, "a.example", name: "old")),
        .added(summary(4, "a.example", name: "new")), .deleted(id: [2]),
    ]

    static func summary(_ id: UInt8, _ rpID: String, name: String = "ada") -> CredentialSummary {
        CredentialSummary(
            id: [id], rpID: rpID, userHandle: [id], userName: name, createdAt: Date(timeIntervalSince1970: 1),
            discoverable: true)
    }

    /// One RP's summaries, found without building an index, are what the whole journal says of it.
    @Test(arguments: ["a.example", "b.example", "c.example"])
    func oneRPsScanAgreesWithTheWholeJournal(rpID: String) {
        let bytes = Self.history.flatMap(IndexJournal.encode)
        var whole: [[UInt8]: CredentialSummary] = [:]
        _ = IndexJournal.decode(bytes[...]) { record in
            switch record {
            case .added(let summary): whole[summary.id] = summary
            case .deleted(let id): whole[id] = nil
            case .unreadable: break
            }
        }
        #expect(IndexJournal.summaries(of: rpID, in: bytes[...]) == whole.filter { $0.value.rpID == rpID })
    }

    /// Read a piece at a time through one buffer, as the store reads a large journal, the answer
    /// is the same for every piece size that holds a record; a smaller one is no answer.
    @Test func aJournalReadInPiecesGivesTheSameAnswer() {
        let bytes = Self.history.flatMap(IndexJournal.encode)
        let whole = IndexJournal.summaries(of: "a.example", in: bytes[...])
        let longest = Self.history.map { IndexJournal.encode($0).count }.max()!
        for piece in 1...bytes.count + 1 {
            let answer = IndexJournal.RPScan.summaries(of: "a.example", in: 0..<bytes.count, piece: piece) {
                room, offset in
                let count = min(room.count, bytes.count - offset)
                room.copyBytes(from: bytes[offset..<offset + count])
                return count
            }
            #expect(answer == (piece >= longest ? whole : nil), "\(piece)")
        }
    }

    /// A journal cut anywhere inside a record, or zeros where a power loss left bytes unwritten,
    /// is no answer: the caller reads the journal whole.
    @Test func aTornOrZeroedTailIsNoAnswer() {
        let bytes = Self.history.flatMap(IndexJournal.encode)
        let last = IndexJournal.encode(Self.history.last!)
        for cut in bytes.count - last.count + 1..<bytes.count {
            #expect(IndexJournal.summaries(of: "a.example", in: bytes.prefix(cut)) == nil, "\(cut)")
        }
        #expect(IndexJournal.summaries(of: "a.example", in: (bytes + [UInt8](repeating: 0, count: 12))[...]) == nil)
    }

    /// Every record the answer rests on (the RP's additions, every deletion) is checked: a flipped
    /// bit there is no answer. Another RP's records are framed, not checked.
    @Test(arguments: 0..<history.count)
    func aFlippedBitInARecordTheAnswerUsesIsNoAnswer(damaged: Int) {
        let encoded = Self.history.map(IndexJournal.encode)
        var bytes = encoded.flatMap { $0 }
        // The last byte of the body: inside the checksummed part, past the fields that frame it.
        bytes[encoded.prefix(damaged + 1).map(\.count).reduce(0, +) - 5] ^= 0x10
        let answer = IndexJournal.summaries(of: "a.example", in: bytes[...])
        switch Self.history[damaged] {
        case .added(let summary) where summary.rpID == "a.example":
            #expect(answer == nil)
        case .deleted:
            #expect(answer == nil)
        case .added, .unreadable:
            #expect(answer?.keys.sorted { $0.lexicographicallyPrecedes($1) } == [[3], [4]])
        }
    }

    @Test func aForeignFileHasNoEpoch() {
        #expect(IndexJournal.epoch(of: Array("{\"version\":1}".utf8)[...]) == nil)
        let epoch = SecureRandom.bytes(IndexJournal.epochLength)
        #expect(IndexJournal.epoch(of: IndexJournal.header(epoch: epoch)[...]) == epoch)
    }
}

extension IndexJournal {
    /// One RP's summaries from a whole journal's records at once (``RPScan``), or `nil` when a
    /// record is torn or damaged.
    static func summaries(of rpID: String, in records: ArraySlice<UInt8>) -> [[UInt8]: CredentialSummary]? {
        var scan = RPScan(rpID: rpID)
        guard records.withUnsafeBytes({ scan.take($0) }) == records.count else { return nil }
        return scan.found
    }
}
