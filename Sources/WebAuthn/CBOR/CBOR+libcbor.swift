private import CCBOR

/// Decoding through libcbor's `cbor_load` (RFC 8949).
///
/// The bytes are first walked in Swift (``CBORPreflight``) to enforce the limits before libcbor
/// allocates anything, then loaded by libcbor, converted at once to ``CBOR`` and released. libcbor
/// 0.8 rejects the one-byte heads of tags 6 to 20 (COSE_Sign1 is tag 18, `d2`), so those heads are
/// handed to it in their two-byte form; offsets and `consumed` still count the caller's bytes.
///
/// What is accepted: any well-formed item (RFC 8949 §3) with map keys in any order (COSE keys in the
/// wild, RFC 8392's examples, are not canonical), and indefinite-length strings, arrays and maps,
/// which libcbor joins; the value is the same as with definite lengths, and re-encoding gives the
/// canonical form. What is refused: duplicate map keys (RFC 8949 §5.6), text that is not UTF-8,
/// and, because libcbor 0.8 does not implement them, the unassigned simple values (`simple(16)`,
/// `f0`, and every two-byte `f8 xx`), which no WebAuthn, COSE or CTAP2 structure uses.
extension CBOR {
    /// How much a decoder accepts before it gives up (a hostile input must not exhaust memory or stack).
    ///
    /// The defaults fit every WebAuthn structure with room to spare: an attestation object nests
    /// four levels deep and is a few kilobytes long.
    public struct DecodingLimits: Sendable, Hashable {
        /// The deepest nesting of arrays, maps and tags: `[[1]]` is two levels deep. libcbor 0.8
        /// refuses more than 2,048 levels whatever this says.
        public var maxDepth: Int
        /// The largest input, in bytes.
        public var maxBytes: Int

        /// Creates limits.
        ///
        /// - Parameters:
        ///   - maxDepth: the deepest nesting of arrays, maps and tags.
        ///   - maxBytes: the largest input, in bytes.
        public init(maxDepth: Int = 16, maxBytes: Int = 1 << 20) {
            self.maxDepth = maxDepth
            self.maxBytes = maxBytes
        }
    }

    /// Decodes exactly one item; any byte after it is an error.
    ///
    /// - Parameters:
    ///   - bytes: one complete CBOR item (RFC 8949), in any map-key order.
    ///   - limits: the largest input and the deepest nesting accepted.
    /// - Throws: `WebAuthnError` with code `.trailingBytes` (offset: the first byte after the
    ///   item), or any code ``decodeFirst(_:limits:)`` throws.
    public init(decoding bytes: some Collection<UInt8>, limits: DecodingLimits = .init()) throws(WebAuthnError) {
        let input = ArraySlice(bytes)
        let (item, consumed) = try Self.decodeFirst(input, limits: limits)
        guard consumed == input.count else {
            throw WebAuthnError(
                .trailingBytes, "\(input.count - consumed) bytes follow the CBOR item", offset: consumed)
        }
        self = item
    }

    /// Decodes the item at the front of `bytes` and says how many bytes it took, for formats where
    /// more data follows (attested credential data, WebAuthn L3 §6.5.2).
    ///
    /// - Parameters:
    ///   - bytes: input that starts with a CBOR item; what follows the item is not read.
    ///   - limits: the largest input and the deepest nesting accepted; `bytes` counts whole.
    /// - Returns: the item, and the length of its encoding (libcbor's `cbor_load_result.read`).
    /// - Throws: `WebAuthnError` with code `.truncated` (the input ends inside the item),
    ///   `.malformedCBOR` (not RFC 8949 grammar, text that is not UTF-8, a simple value libcbor
    ///   0.8 does not know), `.duplicateMapKey`, or `.limitExceeded` (over `limits`); offsets count
    ///   from the start of `bytes` where the position is known.
    public static func decodeFirst(
        _ bytes: ArraySlice<UInt8>, limits: DecodingLimits = .init()
    ) throws(WebAuthnError) -> (item: CBOR, consumed: Int) {
        guard bytes.count <= limits.maxBytes else {
            throw WebAuthnError(.limitExceeded, "CBOR input of \(bytes.count) bytes is over \(limits.maxBytes)")
        }
        let narrowTags = try CBORPreflight.check(bytes, maxDepth: limits.maxDepth)
        let input = narrowTags.isEmpty ? bytes : widening(bytes, at: narrowTags)
        var result = cbor_load_result()
        var item = input.withUnsafeBufferPointer { cbor_load($0.baseAddress, $0.count, &result) }
        guard item != nil else {
            // libcbor's position counts one more byte for each tag head widened before it.
            let widened = narrowTags.enumerated().filter { $0.element + $0.offset < result.error.position }.count
            throw WebAuthnError(libcbor: result.error).shifted(by: -widened)
        }
        defer { cbor_decref(&item) }
        return (try converted(item), result.read - narrowTags.count)
    }

    /// `bytes` with the one-byte tag heads at `offsets` (`c6` to `d4`, tags 6 to 20) rewritten in
    /// their two-byte form (`d8 06` to `d8 14`): the same tags, in the form libcbor 0.8 reads.
    private static func widening(_ bytes: ArraySlice<UInt8>, at offsets: [Int]) -> ArraySlice<UInt8> {
        var widened: [UInt8] = []
        widened.reserveCapacity(bytes.count + offsets.count)
        var copied = bytes.startIndex
        for offset in offsets {
            let head = bytes.startIndex + offset
            widened += bytes[copied..<head]
            widened += [0xD8, bytes[head] & 0x1F]
            copied = head + 1
        }
        widened += bytes[copied...]
        return widened[...]
    }

    /// The Swift value of a libcbor item, which stays owned by the caller. Recursion is bounded by
    /// the depth ``CBORPreflight`` allowed.
    private static func converted(_ item: UnsafeMutablePointer<cbor_item_t>?) throws(WebAuthnError) -> CBOR {
        guard let item else {
            throw WebAuthnError(.malformedCBOR, "libcbor returned an incomplete item")
        }
        switch cbor_typeof(item) {
        case CBOR_TYPE_UINT:
            return .unsigned(cbor_get_int(item))
        case CBOR_TYPE_NEGINT:
            return .negative(cbor_get_int(item))
        case CBOR_TYPE_BYTESTRING:
            return .bytes(try contents(of: item))
        case CBOR_TYPE_STRING:
            guard let text = String(validating: try contents(of: item), as: UTF8.self) else {
                throw WebAuthnError(.malformedCBOR, "CBOR text string is not UTF-8")
            }
            return .text(text)
        case CBOR_TYPE_ARRAY:
            var elements: [CBOR] = []
            for element in UnsafeMutableBufferPointer(start: cbor_array_handle(item), count: cbor_array_size(item)) {
                elements.append(try converted(element))
            }
            return .array(elements)
        case CBOR_TYPE_MAP:
            var entries: [CBOR: CBOR] = [:]
            for pair in UnsafeMutableBufferPointer(start: cbor_map_handle(item), count: cbor_map_size(item)) {
                let key = try converted(pair.key)
                guard entries.updateValue(try converted(pair.value), forKey: key) == nil else {
                    throw WebAuthnError(.duplicateMapKey, "CBOR map has the key \(key) twice (RFC 8949 §5.6)")
                }
            }
            return .map(entries)
        case CBOR_TYPE_TAG:
            var tagged = cbor_tag_item(item)
            defer { cbor_decref(&tagged) }
            return .tagged(cbor_tag_value(item), try converted(tagged))
        default:
            guard cbor_float_ctrl_is_ctrl(item) else {
                return .float(cbor_float_get_float(item))
            }
            // RFC 8949 §3.3: simple values 20 to 23 are false, true, null and undefined.
            switch cbor_ctrl_value(item) {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            case let value: return .simple(value)
            }
        }
    }

    /// The bytes of a byte or text string, joining the chunks of an indefinite-length one.
    private static func contents(of item: UnsafeMutablePointer<cbor_item_t>) throws(WebAuthnError) -> [UInt8] {
        let isText = cbor_isa_string(item)
        if isText ? cbor_string_is_definite(item) : cbor_bytestring_is_definite(item) {
            return Array(
                UnsafeBufferPointer(
                    start: isText ? cbor_string_handle(item) : cbor_bytestring_handle(item),
                    count: isText ? cbor_string_length(item) : cbor_bytestring_length(item)))
        }
        let chunks = UnsafeMutableBufferPointer(
            start: isText ? cbor_string_chunks_handle(item) : cbor_bytestring_chunks_handle(item),
            count: isText ? cbor_string_chunk_count(item) : cbor_bytestring_chunk_count(item))
        var bytes: [UInt8] = []
        for chunk in chunks {
            guard let chunk else {
                throw WebAuthnError(.malformedCBOR, "libcbor returned an incomplete string")
            }
            bytes += try contents(of: chunk)
        }
        return bytes
    }
}

extension WebAuthnError {
    /// The module error for a failed `cbor_load`: libcbor's error code, at libcbor's byte position
    /// (the start of the item it could not read).
    fileprivate init(libcbor error: cbor_error) {
        let offset = error.position
        switch error.code {
        case CBOR_ERR_NOTENOUGHDATA, CBOR_ERR_NODATA:
            self.init(.truncated, "libcbor: the input ends inside the item", offset: offset)
        case CBOR_ERR_MEMERROR:
            self.init(.limitExceeded, "libcbor: out of memory, or nested too deep", offset: offset)
        case CBOR_ERR_MALFORMATED:
            self.init(.malformedCBOR, "libcbor: reserved or unsupported initial byte", offset: offset)
        default:
            self.init(.malformedCBOR, "libcbor: item out of place, or text that is not UTF-8", offset: offset)
        }
    }
}
