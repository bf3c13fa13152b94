import TestSupport
import Testing
import WebAuthn

/// Random CBOR values of every kind except NaN (never equal to itself) and the unassigned simple
/// values (libcbor 0.8 does not read them).
struct CBORGenerator {
    var random: SplitMix64

    mutating func value(depth: Int) -> CBOR {
        switch Int.random(in: 0..<(depth > 0 ? 11 : 8), using: &random) {
        case 0: return .unsigned(integer())
        case 1: return .negative(integer())
        case 2: return .bytes(bytes())
        case 3: return .text(text())
        case 4: return .bool(Bool.random(using: &random))
        case 5: return [.null, .undefined][Int.random(in: 0...1, using: &random)]
        case 6, 7: return .float(float())
        case 8: return .array((0..<count()).map { _ in value(depth: depth - 1) })
        case 9:
            let entries = (0..<count()).map { _ in (value(depth: depth - 1), value(depth: depth - 1)) }
            return .map(Dictionary(entries, uniquingKeysWith: { first, _ in first }))
        default: return .tagged(integer(), value(depth: depth - 1))
        }
    }

    /// An integer of a random bit width, so every encoded width is common.
    private mutating func integer() -> UInt64 {
        random.next() >> UInt64.random(in: 0...64, using: &random)
    }

    private mutating func count() -> Int {
        Int.random(in: 0...(Int.random(in: 0...9, using: &random) == 0 ? 30 : 4), using: &random)
    }

    private mutating func bytes() -> [UInt8] {
        (0..<count() * 3).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    private mutating func text() -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<count() {
            let limits: [UInt32] = [0x7F, 0x7FF, 0xFFFF, 0x10FFFF]
            let limit = limits[Int.random(in: 0..<limits.count, using: &random)]
            scalars.append(Unicode.Scalar(UInt32.random(in: 0...limit, using: &random)) ?? "?")
        }
        return String(scalars)
    }

    /// Doubles, singles, halves (subnormals included) and the special values, never NaN.
    private mutating func float() -> Double {
        let value: Double
        switch Int.random(in: 0..<4, using: &random) {
        case 0: value = Double(bitPattern: random.next())
        case 1: value = Double(Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &random)))
        case 2: value = Double(Float16(bitPattern: UInt16.random(in: 0...UInt16.max, using: &random)))
        default: value = [0.0, -0.0, .infinity, -.infinity, 1.5, -65504][Int.random(in: 0..<6, using: &random)]
        }
        return value.isNaN ? 0.5 : value
    }
}

@Suite struct CBORFuzzTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomValuesRoundTrip(seed: UInt64) throws {
        var generator = CBORGenerator(random: SplitMix64(seed: seed))
        for _ in 0..<1_000 {
            let value = generator.value(depth: 3)
            let encoded = value.encoded()
            let decoded = try CBOR(decoding: encoded)
            #expect(decoded == value)
            #expect(decoded.encoded() == encoded, "\(value)")
            #expect(encoded == Self.expectedEncoding(of: value))
        }
    }

    @Test func strictPrefixesOfRandomValuesThrow() throws {
        var generator = CBORGenerator(random: SplitMix64(seed: 4))
        for _ in 0..<200 {
            let encoded = generator.value(depth: 3).encoded()
            for length in 0..<encoded.count {
                let error = try #require(throws: WebAuthnError.self) { try CBOR(decoding: encoded.prefix(length)) }
                #expect(error.code == .truncated)
            }
        }
    }

    /// Random bytes, half of them drawn from the initial bytes that open containers, strings and
    /// floats, so the decoder gets past the first byte.
    @Test func randomBytesNeverCrash() {
        var random = SplitMix64(seed: 5)
        let structural: [UInt8] = [
            0x18, 0x19, 0x1A, 0x1B, 0x5F, 0x7F, 0x81, 0x82, 0x98, 0x9A, 0x9F, 0xA1, 0xA2, 0xB8, 0xBF, 0xC1, 0xD8,
            0xF9, 0xFA, 0xFB, 0xFF, 0x41, 0x61, 0x62,
        ]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...48, using: &random)).map { _ in
                Bool.random(using: &random)
                    ? UInt8.random(in: 0...255, using: &random)
                    : structural[Int.random(in: 0..<structural.count, using: &random)]
            }
            Self.decodeAnything(bytes)
        }
    }

    @Test func mutatedEncodingsNeverCrash() throws {
        var random = SplitMix64(seed: 6)
        var generator = CBORGenerator(random: SplitMix64(seed: 7))
        var seeds = try CBORExample.appendixA.map { try Hex.decode($0.hex) }
        seeds += (0..<200).map { _ in generator.value(depth: 3).encoded() }
        for _ in 0..<20_000 {
            var bytes = seeds[Int.random(in: 0..<seeds.count, using: &random)]
            for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0: bytes[index] ^= 1 << UInt8.random(in: 0...7, using: &random)
                case 1: bytes[index] = UInt8.random(in: 0...255, using: &random)
                case 2: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
                case 3: bytes.remove(at: index)
                default: bytes.removeLast(Int.random(in: 0...(bytes.count - index), using: &random))
                }
            }
            Self.decodeAnything(bytes)
        }
    }

    /// Decodes `bytes` both ways; failing is fine, at an offset inside the input, but whatever
    /// decodes must re-encode canonically to bytes that decode to the same encoding again.
    private static func decodeAnything(_ bytes: [UInt8]) {
        _ = try? CBOR(decoding: bytes)
        do {
            let (item, consumed) = try CBOR.decodeFirst(bytes[...])
            #expect(consumed > 0 && consumed <= bytes.count)
            #expect((try? CBOR(decoding: bytes.prefix(consumed)).encoded()) == item.encoded())
            let canonical = item.encoded()
            #expect((try? CBOR(decoding: canonical).encoded()) == canonical, "from \(Hex.encode(bytes))")
        } catch {
            #expect((0...bytes.count).contains(error.offset ?? 0), "\(error) from \(Hex.encode(bytes))")
        }
    }

    /// The encoding of an array or map as RFC 8949 §3 and CTAP2 §8 build it by hand: the shortest
    /// head, then the elements, or the entries with keys ordered by major type, length and bytes.
    private static func expectedEncoding(of value: CBOR) -> [UInt8] {
        switch value {
        case .array(let elements):
            return head(major: 4, elements.count) + elements.flatMap { $0.encoded() }
        case .map(let entries):
            let sorted = entries.map { ($0.key.encoded(), $0.value.encoded()) }.sorted { lhs, rhs in
                let lhsKey = (lhs.0[0] >> 5, lhs.0.count)
                let rhsKey = (rhs.0[0] >> 5, rhs.0.count)
                return lhsKey != rhsKey ? lhsKey < rhsKey : lhs.0.lexicographicallyPrecedes(rhs.0)
            }
            return head(major: 5, entries.count) + sorted.flatMap { $0.0 + $0.1 }
        default:
            return value.encoded()
        }
    }

    private static func head(major: UInt8, _ count: Int) -> [UInt8] {
        let base = major << 5
        switch count {
        case ..<24: return [base | UInt8(count)]
        case ..<256: return [base | 24, UInt8(count)]
        default: return [base | 25, UInt8(count >> 8), UInt8(count & 0xFF)]
        }
    }
}
