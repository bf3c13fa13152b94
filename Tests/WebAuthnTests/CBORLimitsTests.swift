import Testing
import WebAuthn

/// Hostile and broken input: every failure is a `WebAuthnError`, never a crash or a huge allocation.
@Suite struct CBORLimitsTests {
    @Test(arguments: CBORExample.appendixA)
    func everyStrictPrefixThrows(_ example: CBORExample) throws {
        let bytes = try Hex.decode(example.hex)
        for length in 0..<bytes.count {
            let error = try #require(throws: WebAuthnError.self) { try CBOR(decoding: bytes.prefix(length)) }
            #expect(error.code == .truncated, "prefix of \(length) bytes: \(error)")
        }
    }

    @Test func trailingByteAfterEveryExampleIsReported() throws {
        for example in CBORExample.appendixA {
            let bytes = try Hex.decode(example.hex)
            let error = try #require(throws: WebAuthnError.self) { try CBOR(decoding: bytes + [0x00]) }
            #expect(error.code == .trailingBytes)
            #expect(error.offset == bytes.count)
            let (_, consumed) = try CBOR.decodeFirst((bytes + [0xFF, 0x1C])[...])
            #expect(consumed == bytes.count)
        }
    }

    /// Nesting counts arrays, maps and tags; the default limit is 16 levels.
    @Test(arguments: [0x81, 0xA1, 0xC1] as [UInt8])
    func depthLimit(container: UInt8) throws {
        func nested(_ depth: Int) -> [UInt8] {
            // A map's key is 0 and its value the next level.
            let level: [UInt8] = container == 0xA1 ? [container, 0x00] : [container]
            return Array(Array(repeating: level, count: depth).joined()) + [0x00]
        }
        #expect(try CBOR(decoding: nested(16)) != .null)
        let error = try #require(throws: WebAuthnError.self) { try CBOR(decoding: nested(17)) }
        #expect(error.code == .limitExceeded)
        #expect(error.offset == 16 * (container == 0xA1 ? 2 : 1))
        #expect(try CBOR(decoding: nested(3), limits: .init(maxDepth: 3)) != .null)
        #expect(throws: WebAuthnError(.limitExceeded, "")) {
            try CBOR(decoding: nested(4), limits: .init(maxDepth: 3))
        }
    }

    @Test func emptyContainersCountAsALevel() throws {
        #expect(try CBOR(decoding: [0x81, 0x80], limits: .init(maxDepth: 2)) == [[]])
        #expect(throws: WebAuthnError(.limitExceeded, "")) {
            try CBOR(decoding: [0x81, 0x80], limits: .init(maxDepth: 1))
        }
        #expect(throws: WebAuthnError(.limitExceeded, "")) {
            try CBOR(decoding: [0x9F, 0x9F, 0xFF, 0xFF], limits: .init(maxDepth: 1))
        }
    }

    /// 100,000 nested arrays, with and without the innermost item: refused before libcbor recurses.
    @Test(arguments: [true, false])
    func hostileNestingFailsCleanly(complete: Bool) {
        let bytes = [UInt8](repeating: 0x81, count: 100_000) + (complete ? [0x00] : [])
        #expect(throws: WebAuthnError(.limitExceeded, "")) { try CBOR(decoding: bytes) }
    }

    /// With the Swift limit lifted, libcbor's own stack (2,048 levels in 0.8) is what refuses.
    @Test func libcborStackLimitIsReported() throws {
        let limits = CBOR.DecodingLimits(maxDepth: 1_000_000)
        var deep = [UInt8](repeating: 0x81, count: 2_000) + [0x00]
        var item = try CBOR(decoding: deep, limits: limits)
        var depth = 0
        while case .array(let elements) = item, let first = elements.first {
            depth += 1
            item = first
        }
        #expect(depth == 2_000)
        deep = [UInt8](repeating: 0x81, count: 100_000) + [0x00]
        #expect(throws: WebAuthnError(.limitExceeded, "")) { try CBOR(decoding: deep, limits: limits) }
    }

    /// Declared lengths far beyond the input: refused before libcbor allocates for them.
    @Test(arguments: [
        "5b8000000000000000", "5bffffffffffffffff", "7bffffffffffffffff", "5a7fffffff00",
        "9bffffffffffffffff", "9b8000000000000000", "9a7fffffff", "9a0001000000",
        "bbffffffffffffffff", "bb4000000000000000", "ba7fffffff", "820182019a7fffffff",
        "5f5bffffffffffffffffff", "9f9affffffffff", "8284" + "00000000",
        "a2" + "0100" + "02" + "a3" + "01000200",
    ])
    func hugeDeclaredLengthsFailCleanly(hex: String) throws {
        let bytes = try Hex.decode(hex)
        let error = try #require(throws: WebAuthnError.self) { try CBOR.decodeFirst(bytes[...]) }
        #expect(error.code == .truncated)
    }

    @Test func longContainersThatFitDecode() throws {
        let count = 65_536
        let array = try CBOR(decoding: [0x9A, 0x00, 0x01, 0x00, 0x00] + [UInt8](repeating: 0xF6, count: count))
        #expect(array.arrayValue?.count == count)
    }

    @Test func inputOverMaxBytesIsRefused() throws {
        let oneMiB = 1 << 20
        let big = CBOR.bytes([UInt8](repeating: 7, count: oneMiB - 5)).encoded()
        #expect(big.count == oneMiB)
        #expect(try CBOR(decoding: big).bytesValue?.count == oneMiB - 5)
        #expect(throws: WebAuthnError(.limitExceeded, "")) { try CBOR(decoding: big + [0x00]) }
        #expect(throws: WebAuthnError(.limitExceeded, "")) { try CBOR.decodeFirst((big + [0x00])[...]) }
        #expect(throws: WebAuthnError(.limitExceeded, "")) {
            try CBOR(decoding: [0x83, 1, 2, 3], limits: .init(maxBytes: 3))
        }
    }
}
