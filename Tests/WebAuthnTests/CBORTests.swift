import Testing
import WebAuthn

/// One encoding and the value it stands for; `canonicalHex` is what `encoded()` gives when `hex`
/// is not already CTAP2 canonical.
struct CBORExample: Sendable, CustomTestStringConvertible {
    let hex: String
    let value: CBOR
    let canonicalHex: String?

    init(_ hex: String, _ value: CBOR, canonical canonicalHex: String? = nil) {
        self.hex = hex
        self.value = value
        self.canonicalHex = canonicalHex
    }

    var testDescription: String { hex }

    /// RFC 8949 Appendix A, every example libcbor 0.8 can read (`simple(16)` and `simple(255)` are
    /// in ``CBORTests/unassignedSimpleValues()``).
    static let appendixA: [CBORExample] = [
        .init("00", 0), .init("01", 1), .init("0a", 10), .init("17", 23), .init("1818", 24), .init("1819", 25),
        .init("1864", 100), .init("1903e8", 1000), .init("1a000f4240", 1_000_000),
        .init("1b000000e8d4a51000", .unsigned(1_000_000_000_000)),
        .init("1bffffffffffffffff", .unsigned(.max)),
        .init("c249010000000000000000", .tagged(2, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]))),
        .init("3bffffffffffffffff", .negative(.max)),
        .init("c349010000000000000000", .tagged(3, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]))),
        .init("20", -1), .init("29", -10), .init("3863", -100), .init("3903e7", -1000),
        .init("f90000", .float(0.0)), .init("f98000", .float(-0.0)), .init("f93c00", .float(1.0)),
        .init("fb3ff199999999999a", .float(1.1)), .init("f93e00", .float(1.5)), .init("f97bff", .float(65504.0)),
        .init("fa47c35000", .float(100000.0)), .init("fa7f7fffff", .float(3.4028234663852886e+38)),
        .init("fb7e37e43c8800759c", .float(1.0e+300)), .init("f90001", .float(5.960464477539063e-8)),
        .init("f90400", .float(0.00006103515625)), .init("f9c400", .float(-4.0)),
        .init("fbc010666666666666", .float(-4.1)),
        .init("f97c00", .float(.infinity)), .init("f97e00", .float(.nan)), .init("f9fc00", .float(-.infinity)),
        .init("fa7f800000", .float(.infinity), canonical: "f97c00"),
        .init("fa7fc00000", .float(.nan), canonical: "f97e00"),
        .init("faff800000", .float(-.infinity), canonical: "f9fc00"),
        .init("fb7ff0000000000000", .float(.infinity), canonical: "f97c00"),
        .init("fb7ff8000000000000", .float(.nan), canonical: "f97e00"),
        .init("fbfff0000000000000", .float(-.infinity), canonical: "f9fc00"),
        .init("f4", false), .init("f5", true), .init("f6", .null), .init("f7", .undefined),
        .init("c074323031332d30332d32315432303a30343a30305a", .tagged(0, "2013-03-21T20:04:00Z")),
        .init("c11a514b67b0", .tagged(1, 1_363_896_240)),
        .init("c1fb41d452d9ec200000", .tagged(1, .float(1_363_896_240.5))),
        .init("d74401020304", .tagged(23, .bytes([1, 2, 3, 4]))),
        .init("d818456449455446", .tagged(24, .bytes([0x64, 0x49, 0x45, 0x54, 0x46]))),
        .init("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .tagged(32, "http://www.example.com")),
        .init("40", .bytes([])), .init("4401020304", .bytes([1, 2, 3, 4])),
        .init("60", ""), .init("6161", "a"), .init("6449455446", "IETF"), .init("62225c", "\"\\"),
        .init("62c3bc", "\u{00fc}"), .init("63e6b0b4", "\u{6c34}"), .init("64f0908591", "\u{10151}"),
        .init("80", []), .init("83010203", [1, 2, 3]), .init("8301820203820405", [1, [2, 3], [4, 5]]),
        .init("98190102030405060708090a0b0c0d0e0f101112131415161718181819", .array((1...25).map { CBOR($0) })),
        .init("a0", [:]), .init("a201020304", [1: 2, 3: 4]),
        .init("a26161016162820203", ["a": 1, "b": [2, 3]]),
        .init("826161a161626163", ["a", ["b": "c"]]),
        .init(
            "a56161614161626142616361436164614461656145",
            ["a": "A", "b": "B", "c": "C", "d": "D", "e": "E"]),
        .init("5f42010243030405ff", .bytes([1, 2, 3, 4, 5]), canonical: "450102030405"),
        .init("7f657374726561646d696e67ff", "streaming", canonical: "6973747265616d696e67"),
        .init("9fff", [], canonical: "80"),
        .init("9f018202039f0405ffff", [1, [2, 3], [4, 5]], canonical: "8301820203820405"),
        .init("9f01820203820405ff", [1, [2, 3], [4, 5]], canonical: "8301820203820405"),
        .init("83018202039f0405ff", [1, [2, 3], [4, 5]], canonical: "8301820203820405"),
        .init("83019f0203ff820405", [1, [2, 3], [4, 5]], canonical: "8301820203820405"),
        .init(
            "9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", .array((1...25).map { CBOR($0) }),
            canonical: "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
        .init("bf61610161629f0203ffff", ["a": 1, "b": [2, 3]], canonical: "a26161016162820203"),
        .init("826161bf61626163ff", ["a", ["b": "c"]], canonical: "826161a161626163"),
        .init("bf6346756ef563416d7421ff", ["Fun": true, "Amt": -2], canonical: "a263416d74216346756ef5"),
    ]
}

@Suite struct CBORTests {
    @Test(arguments: CBORExample.appendixA)
    func appendixA(_ example: CBORExample) throws {
        let decoded = try CBOR(decoding: Hex.decode(example.hex))
        if case .float(let value) = example.value, value.isNaN {
            #expect(decoded.isNaN)
        } else {
            #expect(decoded == example.value)
        }
        let canonical = example.canonicalHex ?? example.hex
        #expect(Hex.encode(decoded.encoded()) == canonical)
        #expect(Hex.encode(example.value.encoded()) == canonical)
    }

    /// libcbor 0.8 implements only the simple values 20 to 23; it rejects the rest, which WebAuthn,
    /// COSE and CTAP2 never use. They still encode as RFC 8949 Appendix A prints them.
    @Test func unassignedSimpleValues() {
        #expect(CBOR.simple(16).encoded() == [0xF0])
        #expect(CBOR.simple(255).encoded() == [0xF8, 0xFF])
        #expect(throws: WebAuthnError(.malformedCBOR, "")) { try CBOR(decoding: [0xF0]) }
        #expect(throws: WebAuthnError(.malformedCBOR, "")) { try CBOR(decoding: [0xF8, 0xFF]) }
    }

    /// libcbor 0.8 rejects the one-byte heads `c6` to `d4`; the decoder hands it `d8 06` to `d8 14`
    /// instead, and positions still count the caller's bytes.
    @Test(arguments: 0...24 as ClosedRange<UInt64>)
    func everySmallTagRoundTrips(tag: UInt64) throws {
        let value = CBOR.array([.tagged(tag, [.tagged(tag, 1)]), "x"])
        let encoded = value.encoded()
        #expect(encoded.count == (tag < 24 ? 7 : 9))
        #expect(try CBOR(decoding: encoded) == value)
        let (item, consumed) = try CBOR.decodeFirst((encoded + [0x00, 0x01])[...])
        #expect(item == value)
        #expect(consumed == encoded.count)
        let error = try #require(throws: WebAuthnError.self) { try CBOR(decoding: encoded + [0x00]) }
        #expect(error.offset == encoded.count)
    }

    @Test func errorOffsetsCountTheCallersBytes() throws {
        let error = try #require(throws: WebAuthnError.self) { try CBOR(decoding: [0x82, 0xD2, 0x00, 0xF0]) }
        #expect(error.code == .malformedCBOR)
        #expect(error.offset == 3)
    }

    /// cose-wg/Examples `ecdsa-examples/ecdsa-sig-01.json`: a COSE_Sign1 message under tag 18 (`d2`).
    @Test func taggedCOSESign1Decodes() throws {
        let hex =
            "d28445a201260300a10442313154546869732069732074686520636f6e74656e742e5840"
            + "6520bbaf2081d7e0ed0f95f76eb0733d667005f7467cec4b87b9381a6ba1ede8e00df29f32a37230f39a842a54821fdd"
            + "223092819d7728efb9d3a0080b75380b"
        let message = try CBOR(decoding: Hex.decode(hex))
        guard case .tagged(18, .array(let parts)) = message else {
            Issue.record("not a tagged COSE_Sign1: \(message)")
            return
        }
        #expect(parts.count == 4)
        #expect(try CBOR(decoding: #require(parts[0].bytesValue)) == [1: -7, 3: 0])
        #expect(parts[1] == [4: .bytes(Array("11".utf8))])
        #expect(parts[2].bytesValue == Array("This is the content.".utf8))
        #expect(parts[3].bytesValue?.count == 64)
        #expect(Hex.encode(message.encoded()) == hex)
    }

    @Test(
        arguments: [
            (0, "00"), (23, "17"), (24, "1818"), (255, "18ff"), (256, "190100"), (65535, "19ffff"),
            (65536, "1a00010000"), (4_294_967_295, "1affffffff"), (4_294_967_296, "1b0000000100000000"),
            (-1, "20"), (-24, "37"), (-25, "3818"), (-256, "38ff"), (-257, "390100"), (-65536, "39ffff"),
            (-65537, "3a00010000"), (-4_294_967_296, "3affffffff"), (-4_294_967_297, "3b0000000100000000"),
            (Int.max, "1b7fffffffffffffff"), (Int.min, "3b7fffffffffffffff"),
        ] as [(Int, String)])
    func integerWidths(value: Int, hex: String) throws {
        #expect(Hex.encode(CBOR(value).encoded()) == hex)
        #expect(try CBOR(decoding: Hex.decode(hex)).intValue == value)
    }

    @Test(arguments: [23, 24, 255, 256, 65535, 65536])
    func lengthWidths(count: Int) throws {
        let head: String
        switch count {
        case ..<24: head = Hex.encode([UInt8(count)])
        case ..<256: head = "18" + Hex.encode([UInt8(count)])
        case ..<65536: head = "19" + Hex.encode([UInt8(count >> 8), UInt8(count & 0xFF)])
        default: head = "1a" + Hex.encode([0, UInt8(count >> 16), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)])
        }
        let items: [(CBOR, UInt8)] = [
            (.bytes(Array(repeating: 0, count: count)), 0x40),
            (.text(String(repeating: "a", count: count)), 0x60),
            (.array(Array(repeating: 0, count: count)), 0x80),
            (.map(Dictionary(uniqueKeysWithValues: (0..<count).map { (CBOR($0), CBOR.null) })), 0xA0),
        ]
        for (item, major) in items {
            let encoded = item.encoded()
            var expectedHead = try Hex.decode(head)
            expectedHead[0] |= major
            #expect(Array(encoded.prefix(expectedHead.count)) == expectedHead)
            #expect(try CBOR(decoding: encoded) == item)
        }
    }

    @Test(
        arguments: [
            (1.0, "f93c00"), (-0.0, "f98000"), (65504.0, "f97bff"), (65505.0, "fa477fe100"), (100000.0, "fa47c35000"),
            (0.1, "fb3fb999999999999a"), (Double(Float.leastNonzeroMagnitude), "fa00000001"),
            (Double(Float16.leastNormalMagnitude), "f90400"), (Double(Float16.leastNonzeroMagnitude), "f90001"),
            (Double(Float16.leastNonzeroMagnitude) * 4, "f90004"),
            // libcbor 0.8 mis-writes half subnormals with more than one bit: these take single precision.
            (Double(Float16.leastNonzeroMagnitude) * 3, "fa34400000"),
            (Double(Float16.leastNormalMagnitude) - Double(Float16.leastNonzeroMagnitude), "fa387fc000"),
            (Double(bitPattern: 0xFFF8_0000_0000_0001), "f97e00"),
        ] as [(Double, String)])
    func shortestFloat(value: Double, hex: String) throws {
        let encoded = CBOR.float(value).encoded()
        #expect(Hex.encode(encoded) == hex)
        let decoded = try CBOR(decoding: encoded)
        if value.isNaN {
            #expect(decoded.isNaN)
        } else {
            #expect(decoded.floatBits == value.bitPattern)
        }
    }

    /// CTAP2 §8: the lower major type first, then the shorter encoding, then bytewise. (RFC 7049
    /// §3.9's length-first order would put -1 before 100.)
    @Test func mapKeysSortCTAP2Canonically() {
        let map: CBOR = ["b": 0, "a": 0, 10: 0, -1: 0, 100: 0, "aa": 0]
        #expect(Hex.encode(map.encoded()) == "a6" + "0a00" + "186400" + "2000" + "616100" + "616200" + "62616100")
        let mixed: CBOR = [
            .bytes([0]): 0, -25: 0, [1]: 0, false: 0, 1000: 0, "": 0, .tagged(1, 0): 0, [:]: 0, 24: 0,
        ]
        #expect(
            Hex.encode(mixed.encoded())
                == "a9" + "181800" + "1903e800" + "381800" + "410000" + "6000" + "810100" + "a000" + "c10000" + "f400")
    }

    /// The WebAuthn L3 example credential public key ("Examples of credentialPublicKey Values
    /// Encoded in COSE_Key Format"): labels 1, 3, -1, -2, -3, exactly as an authenticator emits them.
    @Test func webAuthnCOSEKeyRoundTrips() throws {
        let hex =
            "a501020326200121582065eda5a12577c2bae829437fe338701a10aaa375e1bb5b5de108de439c08551d"
            + "2258201e52ed75701163f7f9e40ddf9f341b3dc9ba860af7e0ca7ca7e9eecd0084d19c"
        let key = try CBOR(decoding: Hex.decode(hex))
        #expect(key[1] == 2)
        #expect(key[3] == -7)
        #expect(key[-1] == 1)
        #expect(key[-2]?.bytesValue?.count == 32)
        #expect(Hex.encode(key.encoded()) == hex)
        let built: CBOR = [-3: key[-3]!, -2: key[-2]!, -1: 1, 3: -7, 1: 2]
        #expect(Hex.encode(built.encoded()) == hex)
    }

    /// RFC 8392 Appendix A.2.3: a COSE key whose labels come in the order -4, -3, -2, -1, 1, 2, 3.
    /// A relying party must read it; re-encoding sorts it.
    @Test func nonCanonicalCOSEKeyDecodes() throws {
        let d = "6c1382765aec5358f117733d281c1c7bdc39884d04a45a1e6c67c858bc206c19"
        let y = "60f7f1a780d8a783bfb7a2dd6b2796e8128dbbcef9d3d168db9529971a36e7b9"
        let x = "143329cce7868e416927599cf65a34f3ce2ffda55a7eca69ed8919a394d42f0f"
        let kid = "524173796d6d65747269634543445341323536"
        let key = try CBOR(
            decoding: Hex.decode(
                "a7" + "235820" + d + "225820" + y + "215820" + x + "2001" + "0102" + "02" + kid + "0326"))
        #expect(key[2]?.bytesValue == Array("AsymmetricECDSA256".utf8))
        #expect(key[3] == -7)
        #expect(
            Hex.encode(key.encoded())
                == "a7" + "0102" + "02" + kid + "0326" + "2001" + "215820" + x + "225820" + y + "235820" + d)
    }

    @Test func nonCanonicalOrderIsAccepted() throws {
        let map = try CBOR(decoding: [0xA2, 0x03, 0x00, 0x01, 0x00])
        #expect(map == [1: 0, 3: 0])
        #expect(map.encoded() == [0xA2, 0x01, 0x00, 0x03, 0x00])
    }

    @Test(arguments: ["a201010102", "a2616101616102", "81a2f400f401", "a1a20101010200"])
    func duplicateMapKeysAreRejected(hex: String) throws {
        #expect(throws: WebAuthnError(.duplicateMapKey, "")) { try CBOR(decoding: Hex.decode(hex)) }
    }

    @Test func trailingBytesAreRejected() throws {
        let error = try #require(throws: WebAuthnError.self) { try CBOR(decoding: [0x83, 1, 2, 3, 0x00]) }
        #expect(error.code == .trailingBytes)
        #expect(error.offset == 4)
    }

    @Test func decodeFirstReportsConsumedBytes() throws {
        let input: [UInt8] = [0xEE, 0xEE, 0xA1, 0x61, 0x61, 0x82, 0x01, 0x02, 0xFF, 0x1C]
        let (item, consumed) = try CBOR.decodeFirst(input[2...])
        #expect(item == ["a": [1, 2]])
        #expect(consumed == 6)
        let (rest, restConsumed) = try CBOR.decodeFirst(input[5...])
        #expect(rest == [1, 2])
        #expect(restConsumed == 3)
        let error = try #require(throws: WebAuthnError.self) { try CBOR.decodeFirst(input[9...]) }
        #expect(error.code == .malformedCBOR)
        #expect(error.offset == 0)
    }

    @Test(
        arguments: [
            ("", WebAuthnError.Code.truncated), ("1c", .malformedCBOR), ("ff", .malformedCBOR), ("1f", .malformedCBOR),
            ("df00", .malformedCBOR), ("8201ff", .malformedCBOR), ("7f4100ff", .malformedCBOR),
            ("5f6100ff", .malformedCBOR), ("bf01ff", .malformedCBOR), ("f818", .malformedCBOR),
            ("62c328", .malformedCBOR), ("62c080", .malformedCBOR), ("63eda080", .malformedCBOR),
            ("64f4908080", .malformedCBOR), ("7f61c361bcff", .malformedCBOR), ("5f5f4100ffff", .malformedCBOR),
            ("9f01", .truncated), ("c1", .truncated), ("1b00", .truncated),
        ] as [(String, WebAuthnError.Code)])
    func malformedInputIsRejected(hex: String, code: WebAuthnError.Code) throws {
        let bytes = try Hex.decode(hex)
        let error = try #require(throws: WebAuthnError.self) { try CBOR(decoding: bytes) }
        #expect(error.code == code)
    }
}

extension CBOR {
    /// Whether this is a float NaN (which `==` never matches).
    var isNaN: Bool {
        if case .float(let value) = self { value.isNaN } else { false }
    }

    /// The bits of a float, so that `-0.0` and `0.0` differ.
    var floatBits: UInt64? {
        if case .float(let value) = self { value.bitPattern } else { nil }
    }
}
