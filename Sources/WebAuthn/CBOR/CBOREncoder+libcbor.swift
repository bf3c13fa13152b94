private import CCBOR

/// Encoding through libcbor: build a `cbor_item_t` tree, `cbor_serialize_alloc` it, free both.
///
/// libcbor writes each item in the width it was built with, so canonical form is chosen here, per
/// CTAP2 §8 ("CTAP2 canonical CBOR encoding form") and RFC 8949 §4.2.1: integers and lengths in
/// their shortest form, definite lengths only, map keys sorted by major type, then by the length
/// of their encoding, then bytewise, floats in the shortest of half, single and double precision
/// that holds the value exactly, NaN as the half `f9 7e00`.
extension CBOR {
    /// The CTAP2 canonical encoding of this item.
    ///
    /// One exception to the shortest float: libcbor 0.8 writes a subnormal half-precision value
    /// wrongly unless it is a power of two, so the other subnormal halves (magnitudes below 2⁻¹⁴
    /// with more than one significant bit) are written in single precision; the value is kept.
    /// WebAuthn, COSE and CTAP2 carry no floats.
    ///
    /// - Precondition: no `.simple` value is between 24 and 31; RFC 8949 §3.3 has no well-formed
    ///   encoding for them.
    /// - Returns: the encoding, which ``init(decoding:limits:)`` reads back to an equal value, except
    ///   for `.simple` values other than 20 to 23, which libcbor 0.8 cannot read.
    public func encoded() -> [UInt8] {
        var item: UnsafeMutablePointer<cbor_item_t>? = built()
        defer { cbor_decref(&item) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var capacity = 0
        let length = cbor_serialize_alloc(item, &buffer, &capacity)
        defer { free(buffer) }
        guard length > 0 else {
            // libcbor returns 0 only when it cannot grow its buffer; out of memory is fatal in Swift.
            preconditionFailure("libcbor could not allocate a buffer for \(capacity) bytes")
        }
        return Array(UnsafeBufferPointer(start: buffer, count: length))
    }

    /// A new libcbor item for this value (the caller owns one reference), in canonical form.
    private func built() -> UnsafeMutablePointer<cbor_item_t> {
        switch self {
        case .unsigned(let value):
            return allocated(Self.integer(value))
        case .negative(let value):
            let item = allocated(Self.integer(value))
            cbor_mark_negint(item)
            return item
        case .bytes(let value):
            return allocated(value.withUnsafeBufferPointer { cbor_build_bytestring($0.baseAddress, $0.count) })
        case .text(let value):
            return allocated(value.withCString { cbor_build_stringn($0, value.utf8.count) })
        case .array(let elements):
            let array = allocated(cbor_new_definite_array(elements.count))
            for element in elements {
                // A definite array built for `elements.count` items has room for each.
                let pushed = cbor_array_push(array, cbor_move(element.built()))
                precondition(pushed, "libcbor refused an element of a definite array")
            }
            return array
        case .map(let entries):
            let map = allocated(cbor_new_definite_map(entries.count))
            let sorted = entries.map { (key: $0.key.encoded(), entry: $0) }.sorted {
                CBOR.canonicallyPrecedes($0.key, $1.key)
            }
            for (_, (key, value)) in sorted {
                // A definite map built for `entries.count` pairs has room for each.
                let added = cbor_map_add(map, cbor_pair(key: cbor_move(key.built()), value: cbor_move(value.built())))
                precondition(added, "libcbor refused an entry of a definite map")
            }
            return map
        case .tagged(let tag, let value):
            return allocated(cbor_build_tag(tag, cbor_move(value.built())))
        case .bool(let value):
            return allocated(cbor_build_bool(value))
        case .null:
            return allocated(cbor_new_null())
        case .undefined:
            return allocated(cbor_new_undef())
        case .simple(let value):
            precondition(!(24...31).contains(value), "simple(\(value)) has no well-formed encoding (RFC 8949 §3.3)")
            return allocated(cbor_build_ctrl(value))
        case .float(let value):
            return allocated(Self.float(value))
        }
    }

    /// An unsigned integer item in the narrowest width that holds `value`.
    private static func integer(_ value: UInt64) -> UnsafeMutablePointer<cbor_item_t>? {
        if let byte = UInt8(exactly: value) {
            return cbor_build_uint8(byte)
        }
        if let short = UInt16(exactly: value) {
            return cbor_build_uint16(short)
        }
        if let word = UInt32(exactly: value) {
            return cbor_build_uint32(word)
        }
        return cbor_build_uint64(value)
    }

    /// A float item in the narrowest precision that holds `value` exactly and that libcbor 0.8
    /// writes correctly (its half encoder keeps only the top bit of a subnormal).
    private static func float(_ value: Double) -> UnsafeMutablePointer<cbor_item_t>? {
        if value.isNaN {
            return cbor_build_float2(.nan)
        }
        if let half = Float16(exactly: value), !half.isSubnormal || half.significandWidth == 0 {
            return cbor_build_float2(Float(half))
        }
        if let single = Float(exactly: value) {
            return cbor_build_float4(single)
        }
        return cbor_build_float8(value)
    }
}

/// A libcbor constructor's result. libcbor returns NULL only when `malloc` fails, and running out of
/// memory is fatal everywhere else in Swift too: this is the encoder's one unreachable case.
private func allocated(_ item: UnsafeMutablePointer<cbor_item_t>?) -> UnsafeMutablePointer<cbor_item_t> {
    guard let item else {
        preconditionFailure("libcbor could not allocate an item")
    }
    return item
}
