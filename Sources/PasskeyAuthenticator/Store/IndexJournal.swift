import CZlib
import FoundationEssentials
import WebAuthn

/// `index.log`, the file store's journal of which credentials it holds: what
/// ``CredentialStore/summaries(rpID:)`` answers from, so that no credential file is opened to
/// choose one (DESIGN.md: The file-backed store).
///
/// ```
/// index.log  = magic epoch record*
/// magic      = "SoftPasskey index 1" 0x0A
/// epoch      = 16 random bytes, new each time the journal is rewritten
/// record     = uint32(len(body)) body uint32(crc32(body))       integers big-endian
/// body       = %x01 summary                                    a credential was added or updated
///            / %x02 bytes(id)                                  a credential was deleted
///            / %x03 bytes(UTF-8 file name)                     a credential file that does not read
/// summary    = bytes(id) bytes(UTF-8 rpID) bytes(userHandle) bytes(UTF-8 userName)
///              int64(createdAt, milliseconds since 1970) uint8(discoverable: 0 or 1)
/// bytes(x)   = uint16(len(x)) x
/// ```
///
/// Records are appended after the credential file they describe is committed, and `.lock` then
/// says how long the journal is; crc32 is ISO-HDLC's (zlib's), so a record torn by a crash, or
/// bytes a power loss left unwritten, end the journal rather than being read.
/// The files stay the truth: the journal is a cache that costs a rebuild when lost.
enum IndexJournal {
    /// The journal's file name, in the store's directory.
    static let fileName = "index.log"
    /// The first bytes of every journal.
    static let magic = Array("SoftPasskey index 1\n".utf8)
    /// The length of the epoch that follows the magic.
    static let epochLength = 16
    /// Where the first record starts.
    static var headerLength: Int { magic.count + epochLength }

    /// One entry of the journal.
    enum Record: Equatable {
        /// A credential was added or updated; a later record for its ID replaces this one.
        case added(CredentialSummary)
        /// A credential was deleted.
        case deleted(id: [UInt8])
        /// A credential file that could not be read, so listings keep reporting it by name.
        case unreadable(fileName: String)
    }

    /// The header of a journal with this epoch.
    static func header(epoch: [UInt8]) -> [UInt8] {
        magic + epoch
    }

    /// The epoch a journal starts with, or `nil` when `bytes` does not start like a journal.
    static func epoch(of bytes: ArraySlice<UInt8>) -> [UInt8]? {
        guard bytes.count >= headerLength, bytes.prefix(magic.count).elementsEqual(magic) else {
            return nil
        }
        return Array(bytes.dropFirst(magic.count).prefix(epochLength))
    }

    /// One record, framed.
    static func encode(_ record: Record) -> [UInt8] {
        var body: [UInt8] = []
        switch record {
        case .added(let summary):
            body.append(1)
            appendField(summary.id, to: &body)
            appendField(Array(summary.rpID.utf8), to: &body)
            appendField(summary.userHandle, to: &body)
            appendField(Array(summary.userName.utf8), to: &body)
            let milliseconds = UInt64(bitPattern: Int64((summary.createdAt.timeIntervalSince1970 * 1000).rounded()))
            body += (0..<8).reversed().map { UInt8(truncatingIfNeeded: milliseconds >> ($0 * 8)) }
            body.append(summary.discoverable ? 1 : 0)
        case .deleted(let id):
            body.append(2)
            appendField(id, to: &body)
        case .unreadable(let fileName):
            body.append(3)
            appendField(Array(fileName.utf8), to: &body)
        }
        return bigEndian(UInt32(body.count)) + body + bigEndian(crc32(body))
    }

    /// Reads whole records from the start of `bytes`, handing each to `apply`, and stops at the
    /// first one that is torn, fails its checksum or does not parse.
    ///
    /// - Returns: how many bytes the whole records took; less than `bytes.count` when the
    ///   journal ends in a torn or damaged record.
    static func decode(_ bytes: ArraySlice<UInt8>, _ apply: (Record) -> Void) -> Int {
        var reader = ByteReader(bytes, subject: "index journal", code: .truncated)
        var intact = 0
        do {
            while !reader.isAtEnd {
                let length = Int(try reader.readUInt32("record length"))
                let body = try reader.read(length, "record")
                guard try reader.readUInt32("checksum") == crc32(body), let record = try? record(body) else {
                    break
                }
                apply(record)
                intact = reader.offset
            }
        } catch {
            // A torn last record: what came before it stands.
        }
        return intact
    }

    /// One RP's summaries, found without building an index: a record's RP ID field is compared in
    /// place before the record is decoded, so a new process's first discoverable `get` in a large
    /// store decodes one RP's records and only frames the rest (issue 13; issue 46 measured it at
    /// 10⁶). The records come in pieces of any size, so the journal is read through one buffer.
    ///
    /// Every record the answer rests on passes its checksum: another RP's additions and the
    /// names of unreadable files are framed and passed over unchecked, which at 10⁶ records is most
    /// of the time a check costs. Damage there can only misframe what follows, and a misframed
    /// record the answer would use fails its checksum or does not parse; a torn tail, or zeros a
    /// power loss left, do not frame (a record of length 0 has no kind).
    struct RPScan {
        private let wanted: [UInt8]
        /// The summaries the records taken so far leave, by ID.
        private(set) var found: [[UInt8]: CredentialSummary] = [:]

        init(rpID: String) {
            wanted = Array(rpID.utf8)
        }

        /// One RP's summaries from the records at `range` of a journal, read a piece at a time
        /// into one buffer by `read` (which fills what room it is given from an offset, as
        /// `pread` does, and reads 0 bytes at the end).
        ///
        /// - Returns: the summaries, or `nil` when a record is torn or damaged, the journal ends
        ///   early, or a record is longer than a piece.
        static func summaries<Failure: Error>(
            of rpID: String, in range: Range<Int>, piece: Int,
            read: (UnsafeMutableRawBufferPointer, Int) throws(Failure) -> Int
        ) throws(Failure) -> [[UInt8]: CredentialSummary]? {
            var scan = RPScan(rpID: rpID)
            var buffer = [UInt8](repeating: 0, count: min(piece, range.count))
            // `carried` bytes at the buffer's start are a record the last piece cut.
            var (offset, carried) = (range.lowerBound, 0)
            while offset < range.upperBound {
                let room = min(buffer.count, carried + range.upperBound - offset)
                let count = try buffer.withUnsafeMutableBytes { bytes in
                    Result { () throws(Failure) in
                        try read(UnsafeMutableRawBufferPointer(rebasing: bytes[carried..<room]), offset)
                    }
                }.get()
                guard count > 0 else { return nil }
                offset += count
                let available = carried + count
                let taken = buffer.withUnsafeBytes { scan.take(UnsafeRawBufferPointer(rebasing: $0[..<available])) }
                guard let taken else { return nil }
                carried = available - taken
                buffer.withUnsafeMutableBytes {
                    $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[taken..<available]))
                }
            }
            return carried == 0 ? scan.found : nil
        }

        /// Takes the whole records at the start of `bytes`.
        ///
        /// - Returns: how many bytes they took (a record cut at the end waits for the next
        ///   piece), or `nil` when a record the answer would use is damaged.
        mutating func take(_ bytes: UnsafeRawBufferPointer) -> Int? {
            var offset = 0
            while let length = IndexJournal.bigEndianUInt32(bytes, at: offset).map(Int.init),
                let checksum = IndexJournal.bigEndianUInt32(bytes, at: offset + 4 + length)
            {
                let body = UnsafeRawBufferPointer(rebasing: bytes[offset + 4..<offset + 4 + length])
                guard take(body, checksum: checksum) else { return nil }
                offset += 4 + length + 4
            }
            return offset
        }

        private mutating func take(_ body: UnsafeRawBufferPointer, checksum: UInt32) -> Bool {
            guard let id = IndexJournal.fieldRange(body, at: 1) else { return false }
            switch body[0] {
            case 1:
                guard let rp = IndexJournal.fieldRange(body, at: id.upperBound) else { return false }
                guard rp.count == wanted.count, wanted.withUnsafeBytes({ $0.elementsEqual(body[rp]) }) else {
                    return true
                }
                guard IndexJournal.crc32(body) == checksum,
                    case .added(let summary)? = try? IndexJournal.record(ArraySlice(body))
                else {
                    return false
                }
                found[Array(body[id])] = summary
            case 2:
                guard IndexJournal.crc32(body) == checksum else { return false }
                if !found.isEmpty { found[Array(body[id])] = nil }
            case 3:
                break
            default:
                return false
            }
            return true
        }
    }

    /// The big-endian `UInt32` at `offset`, or `nil` past the end.
    private static func bigEndianUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32? {
        guard offset >= 0, bytes.count - offset >= 4 else { return nil }
        return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Where the field (`bytes(x)`) that starts at `offset` keeps its bytes, or `nil` when it is cut.
    private static func fieldRange(_ body: UnsafeRawBufferPointer, at offset: Int) -> Range<Int>? {
        guard body.count - offset >= 2 else { return nil }
        let start = offset + 2
        let end = start + (Int(body[offset]) << 8 | Int(body[offset + 1]))
        return end <= body.count ? start..<end : nil
    }

    private static func record(_ body: ArraySlice<UInt8>) throws(WebAuthnError) -> Record? {
        var reader = ByteReader(body, subject: "index record", code: .truncated)
        let record: Record
        switch try reader.readUInt8("kind") {
        case 1:
            let id = Array(try field(&reader))
            let rpID = String(decoding: try field(&reader), as: UTF8.self)
            let userHandle = Array(try field(&reader))
            let userName = String(decoding: try field(&reader), as: UTF8.self)
            let milliseconds = try reader.read(8, "createdAt").reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let discoverable = try reader.readUInt8("discoverable")
            guard discoverable <= 1 else {
                return nil
            }
            record = .added(
                CredentialSummary(
                    id: id, rpID: rpID, userHandle: userHandle, userName: userName,
                    createdAt: Date(timeIntervalSince1970: Double(Int64(bitPattern: milliseconds)) / 1000),
                    discoverable: discoverable == 1))
        case 2:
            record = .deleted(id: Array(try field(&reader)))
        case 3:
            record = .unreadable(fileName: String(decoding: try field(&reader), as: UTF8.self))
        default:
            return nil
        }
        return reader.isAtEnd ? record : nil
    }

    private static func field(_ reader: inout ByteReader) throws(WebAuthnError) -> ArraySlice<UInt8> {
        try reader.read(Int(try reader.readUInt16("field length")), "field")
    }

    private static func appendField(_ bytes: [UInt8], to body: inout [UInt8]) {
        // Every field is far shorter: IDs are at most 186 bytes, and WebAuthn caps user handles
        // at 64 bytes; names longer than 65535 bytes are cut rather than made unreadable.
        let field = bytes.prefix(Int(UInt16.max))
        body += [UInt8(field.count >> 8), UInt8(field.count & 0xFF)] + field
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    // MARK: CRC-32

    /// CRC-32/ISO-HDLC (the polynomial 0xEDB88320, reflected): zlib's `crc32`.
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        bytes.withContiguousStorageIfAvailable { crc32(UnsafeRawBufferPointer($0)) } ?? crc32(Array(bytes))
    }

    private static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let start = bytes.baseAddress else { return 0 }
        return UInt32(CZlib.crc32(0, start.assumingMemoryBound(to: UInt8.self), UInt32(bytes.count)))
    }
}
