import WebAuthn

/// A U2F request message: a command APDU (FIDO U2F Raw Message Formats v1.2 §3.1, in the
/// encodings of ISO/IEC 7816-4 §5.1).
///
/// ```
/// header   = CLA INS P1 P2
/// short    = header [Lc (1, not 0) data] [Le (1)]
/// extended = header 00 Lc (2) data [Le (2)]   |   header 00 Le (2)
/// ```
///
/// U2F clients send the extended form (python-fido2 and libfido2 always, with Le 0000), and
/// python-fido2's U2F_VERSION carries Lc 0000 and no data, which is read as an empty body.
/// Anything else (a header cut short, an Lc that disagrees with the bytes, a Le of the wrong
/// size) is `SW_WRONG_LENGTH`; the class and instruction are the command layer's to judge.
struct U2FCommandAPDU: Sendable, Hashable {
    /// The class byte (0 for U2F).
    let cla: UInt8
    /// The instruction.
    let ins: UInt8
    /// The first parameter (U2F_AUTHENTICATE's control byte).
    let p1: UInt8
    /// The second parameter.
    let p2: UInt8
    /// The request data; empty without Lc.
    let data: [UInt8]
    /// The most response bytes the client takes (Ne: 256 or 65536 for a Le of 0), or `nil` when
    /// there is no Le.
    let expectedLength: Int?

    /// Reads an APDU.
    ///
    /// - Parameter bytes: the whole `CTAPHID_MSG` payload.
    /// - Throws: ``U2FStatusWord/wrongLength`` when it is not one of the shapes above.
    init(bytes: [UInt8]) throws(U2FStatusWord) {
        var reader = ByteReader(bytes[...], subject: "command APDU", code: .malformedEncoding)
        do {
            cla = try reader.readUInt8("CLA")
            ins = try reader.readUInt8("INS")
            p1 = try reader.readUInt8("P1")
            p2 = try reader.readUInt8("P2")
            let (data, expectedLength) = try Self.body(reader.rest)
            self.data = data
            self.expectedLength = expectedLength
        } catch {
            throw .wrongLength
        }
    }

    /// The data and Ne after the header, by ISO/IEC 7816-4's cases 1 to 4, short or extended.
    private static func body(_ body: ArraySlice<UInt8>) throws(WebAuthnError) -> ([UInt8], Int?) {
        var reader = ByteReader(body, subject: "command APDU body", code: .malformedEncoding)
        if reader.isAtEnd {
            return ([], nil)  // case 1
        }
        let first = try reader.readUInt8("Lc")
        if reader.isAtEnd {
            return ([], first == 0 ? 256 : Int(first))  // case 2S
        }
        if first != 0 {
            let data = Array(try reader.read(Int(first), "data"))  // case 3S, 4S
            guard !reader.isAtEnd else { return (data, nil) }
            let le = try reader.readUInt8("Le")
            try finish(reader)
            return (data, le == 0 ? 256 : Int(le))
        }
        let count = try reader.readUInt16("Lc")
        if reader.isAtEnd {
            return ([], count == 0 ? 65536 : Int(count))  // case 2E
        }
        let data = Array(try reader.read(Int(count), "data"))  // case 3E, 4E
        guard !reader.isAtEnd else { return (data, nil) }
        let le = try reader.readUInt16("Le")
        try finish(reader)
        return (data, le == 0 ? 65536 : Int(le))
    }

    private static func finish(_ reader: ByteReader) throws(WebAuthnError) {
        guard reader.isAtEnd else {
            throw WebAuthnError(.malformedEncoding, "bytes after Le", offset: reader.offset)
        }
    }
}
