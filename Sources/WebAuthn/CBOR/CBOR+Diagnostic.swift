/// CBOR diagnostic notation (RFC 8949 §8), for people reading what a decoder saw:
/// `{1: 2, 3: -7, -1: 1, -2: h'1cf2…', -3: h'59e4…'}`.
///
/// Map entries print in CTAP2 canonical key order, so equal items always print alike.
extension CBOR: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unsigned(let value): String(value)
        case .negative(let value): value == .max ? "-18446744073709551616" : "-\(value + 1)"
        case .bytes(let value): "h'\(Hex.encode(value))'"
        case .text(let value): "\"" + value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        case .array(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .map(let entries):
            "{"
                + entries.map { ($0.key.encoded(), "\($0.key): \($0.value)") }.sorted {
                    CBOR.canonicallyPrecedes($0.0, $1.0)
                }
                .map(\.1).joined(separator: ", ") + "}"
        case .tagged(let tag, let item): "\(tag)(\(item))"
        case .bool(let value): String(value)
        case .null: "null"
        case .undefined: "undefined"
        case .simple(let value): "simple(\(value))"
        case .float(let value):
            value.isNaN ? "NaN" : value.isInfinite ? (value < 0 ? "-Infinity" : "Infinity") : String(value)
        }
    }
}
