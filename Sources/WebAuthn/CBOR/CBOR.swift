/// One CBOR data item (RFC 8949), as WebAuthn and COSE use them.
///
/// Decoding (``init(decoding:limits:)``) goes through libcbor and accepts any well-formed item within
/// the limits, in any map-key order. Encoding (``encoded()``) is always CTAP2 canonical (CTAP2 §8,
/// "CTAP2 canonical CBOR encoding form"): integers and lengths in their shortest form, definite
/// lengths, map keys sorted by major type, then by the length of their encoding, then bytewise.
///
/// Integers keep CBOR's two major types so every value of the wire fits: `.unsigned(n)` is `n`,
/// `.negative(n)` is `-1 - n`. Use ``init(_:)`` and ``intValue`` to move between them and `Int`;
/// nothing outside this type does that arithmetic.
public enum CBOR: Sendable, Hashable {
    /// Major type 0.
    case unsigned(UInt64)
    /// Major type 1: the value `-1 - n`.
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3.
    case text(String)
    /// Major type 4.
    case array([CBOR])
    /// Major type 5. Keys are unique; order is not kept (encoding sorts canonically).
    case map([CBOR: CBOR])
    /// Major type 6.
    indirect case tagged(UInt64, CBOR)
    /// Major type 7, simple values 20 and 21.
    case bool(Bool)
    /// Major type 7, simple value 22.
    case null
    /// Major type 7, simple value 23.
    case undefined
    /// Major type 7, any other simple value.
    case simple(UInt8)
    /// Major type 7, half, single or double precision.
    case float(Double)

    /// An integer item, in the major type its sign calls for.
    public init(_ value: Int) {
        if value >= 0 {
            self = .unsigned(UInt64(value))
        } else {
            self = .negative(UInt64(-1 - value))
        }
    }

    /// The integer value, when this is an integer that fits in `Int`.
    public var intValue: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value <= UInt64(Int.max) ? -1 - Int(value) : nil
        default: nil
        }
    }

    /// The bytes, when this is a byte string.
    public var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { value } else { nil }
    }

    /// The text, when this is a text string.
    public var textValue: String? {
        if case .text(let value) = self { value } else { nil }
    }

    /// The elements, when this is an array.
    public var arrayValue: [CBOR]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The entries, when this is a map.
    public var mapValue: [CBOR: CBOR]? {
        if case .map(let value) = self { value } else { nil }
    }

    /// The value, when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The value under an integer key, when this is a map (COSE labels, CTAP2 parameters).
    public subscript(key: Int) -> CBOR? {
        mapValue?[CBOR(key)]
    }

    /// The value under a text key, when this is a map (attestation objects and statements).
    public subscript(key: String) -> CBOR? {
        mapValue?[.text(key)]
    }
}

extension CBOR {
    /// CTAP2 §8 key order: the lower major type first, then the shorter encoding, then bytewise.
    ///
    /// This is not RFC 7049 §3.9's length-first order: CTAP2 puts `100` (`18 64`) before `-1`
    /// (`20`). For the keys CTAP2 and COSE use (integers, strings) it equals RFC 8949 §4.2.1's
    /// bytewise order.
    static func canonicallyPrecedes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        let lhsRank = ((lhs.first ?? 0) >> 5, lhs.count)
        let rhsRank = ((rhs.first ?? 0) >> 5, rhs.count)
        return lhsRank != rhsRank ? lhsRank < rhsRank : lhs.lexicographicallyPrecedes(rhs)
    }
}

extension CBOR: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByBooleanLiteral
{
    public init(integerLiteral value: Int) {
        self.init(value)
    }

    public init(stringLiteral value: String) {
        self = .text(value)
    }

    public init(arrayLiteral elements: CBOR...) {
        self = .array(elements)
    }

    /// A map literal; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (CBOR, CBOR)...) {
        self = .map(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}
