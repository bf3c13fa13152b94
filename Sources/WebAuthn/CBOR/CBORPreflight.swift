/// A walk over the heads of one CBOR item, done in Swift before libcbor sees the bytes.
///
/// libcbor 0.8 trusts what a head declares: `cbor_load` allocates and zero-fills an array of the
/// declared size before it reads one element (the five bytes `9a 7f ff ff ff` ask for 16 GiB), and
/// it builds up to 2,048 levels of nesting (its stack's size) before it gives up. So the limits are
/// enforced here, where nothing is allocated: nesting deeper than ``CBOR/DecodingLimits/maxDepth``
/// is refused, and so is a head that promises more elements or bytes than the rest of the input can
/// hold. What passes lets libcbor allocate at most a small multiple of the input's size.
///
/// The walk reads RFC 8949 §3 heads, `initial byte (major type << 5 | additional information)`
/// followed by a 0, 1, 2, 4 or 8-byte argument, keeps a stack of the items each open array, map or
/// tag still owes, skips string contents, and stops at the end of the first item. The finer grammar
/// (UTF-8, map pairing inside indefinite maps, simple values) is left to libcbor.
///
/// On the way it notes the one-byte heads of tags 6 to 20 (`c6` to `d4`, COSE_Sign1's `d2` among
/// them), which libcbor 0.8 rejects as unassigned although RFC 8949 §3.4 allows every tag number.
enum CBORPreflight {
    /// Walks the item at the front of `bytes`.
    ///
    /// Nesting counts arrays, maps and tags: `[[1]]` is two levels deep.
    ///
    /// - Parameters:
    ///   - bytes: the input; the item starts at its first byte, anything after the item is ignored.
    ///   - maxDepth: the deepest nesting allowed.
    /// - Returns: the offsets, in increasing order, of the one-byte heads of tags 6 to 20.
    /// - Throws: `.truncated` when the input ends inside the item or a length promises more than the
    ///   input holds, `.malformedCBOR` for a head RFC 8949 §3 does not allow or a misplaced break,
    ///   `.limitExceeded` for nesting deeper than `maxDepth`; each with the offset of the problem.
    static func check(_ bytes: ArraySlice<UInt8>, maxDepth: Int) throws(WebAuthnError) -> [Int] {
        var reader = ByteReader(bytes, subject: "CBOR item", code: .truncated)
        // Per open array, map or tag: the items it still owes, or nil when it ends with a break.
        var open: [UInt64?] = []
        // The items all open definite containers still owe; each takes at least one byte.
        var owed: UInt64 = 0
        var narrowTags: [Int] = []
        repeat {
            let start = reader.offset
            let (major, argument) = try readHead(&reader)
            let isBreak = major == 7 && argument == nil
            if !isBreak, case let left?? = open.last {
                open[open.count - 1] = left - 1
                owed -= 1
            }
            if (4...6).contains(major), open.count >= maxDepth {
                throw WebAuthnError(.limitExceeded, "CBOR nested deeper than \(maxDepth) levels", offset: start)
            }
            switch (major, argument) {
            case (7, nil):
                guard case .some(nil) = open.last else {
                    throw WebAuthnError(.malformedCBOR, "CBOR break outside an indefinite-length item", offset: start)
                }
                open.removeLast()
            case (2, let length?), (3, let length?):
                try reader.skip(Int(clamping: length), "string of \(length) bytes")
            case (2, nil), (3, nil):
                try skipChunks(of: major, &reader)
            case (4, let count?), (5, let count?):
                let itemsPerEntry: UInt64 = major == 5 ? 2 : 1
                guard count <= UInt64(reader.rest.count) / itemsPerEntry else {
                    throw WebAuthnError(
                        .truncated, "CBOR container of \(count) entries is longer than the input", offset: start)
                }
                if count > 0 {
                    open.append(count * itemsPerEntry)
                    owed += count * itemsPerEntry
                }
            case (4, nil), (5, nil):
                open.append(nil)
            case (6, let tag?):
                if (6...20).contains(tag), reader.offset - start == 1 {
                    narrowTags.append(start)
                }
                open.append(1)
                owed += 1
            default:
                break
            }
            while case 0?? = open.last {
                open.removeLast()
            }
            guard owed <= UInt64(reader.rest.count) else {
                throw WebAuthnError(.truncated, "the input ends before the \(owed) items CBOR promises", offset: start)
            }
        } while !open.isEmpty
        return narrowTags
    }

    /// Reads one head: the major type and its argument, `nil` for indefinite length or break.
    private static func readHead(_ reader: inout ByteReader) throws(WebAuthnError) -> (UInt8, UInt64?) {
        let start = reader.offset
        let initial = try reader.readUInt8("head")
        let major = initial >> 5
        switch initial & 0x1F {
        case let info where info < 24:
            return (major, UInt64(info))
        case 24:
            return (major, UInt64(try reader.readUInt8("argument")))
        case 25:
            return (major, UInt64(try reader.readUInt16("argument")))
        case 26:
            return (major, UInt64(try reader.readUInt32("argument")))
        case 27:
            return (major, try reader.read(8, "argument").reduce(0) { $0 << 8 | UInt64($1) })
        case 31 where major >= 2 && major != 6:
            return (major, nil)
        case let info:
            throw WebAuthnError(
                .malformedCBOR, "CBOR major type \(major) with additional information \(info)", offset: start)
        }
    }

    /// Skips the chunks of an indefinite-length string up to its break; each chunk must be a
    /// definite-length string of the same major type (RFC 8949 §3.2.3).
    private static func skipChunks(of major: UInt8, _ reader: inout ByteReader) throws(WebAuthnError) {
        while true {
            let start = reader.offset
            switch try readHead(&reader) {
            case (7, nil):
                return
            case (major, let length?):
                try reader.skip(Int(clamping: length), "string chunk of \(length) bytes")
            default:
                throw WebAuthnError(
                    .malformedCBOR, "CBOR indefinite-length string with a chunk of another kind", offset: start)
            }
        }
    }
}
