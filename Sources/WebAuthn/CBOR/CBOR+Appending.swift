extension CBOR {
    /// Appends one head (RFC 8949 §3): the major type and its argument in the shortest form,
    /// CTAP2 canonical (CTAP 2.1 §8): what ``encoded()`` writes for the same item, without building
    /// it. For the structures an authenticator writes many times (COSE keys, authenticator data
    /// inside attestation objects), where building ``CBOR`` values and having libcbor encode them
    /// costs more than the bytes (issue 46).
    ///
    /// - Parameters:
    ///   - major: the major type, 0 to 7.
    ///   - argument: the value (0, 1), the length (2, 3) or the count (4, 5).
    ///   - output: where to write.
    package static func appendHead(major: UInt8, _ argument: UInt64, to output: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24:
            output.append(type | UInt8(argument))
        case 24...0xFF:
            output.append(type | 24)
            output.append(UInt8(argument))
        case 0x100...0xFFFF:
            output.append(type | 25)
            appendBigEndian(argument, bytes: 2, to: &output)
        case 0x1_0000...0xFFFF_FFFF:
            output.append(type | 26)
            appendBigEndian(argument, bytes: 4, to: &output)
        default:
            output.append(type | 27)
            appendBigEndian(argument, bytes: 8, to: &output)
        }
    }

    /// Appends an integer as ``init(_:)`` makes it: major type 0 for `value ≥ 0`, else 1.
    package static func append(integer value: Int, to output: inout [UInt8]) {
        if value >= 0 {
            appendHead(major: 0, UInt64(value), to: &output)
        } else {
            appendHead(major: 1, UInt64(-1 - value), to: &output)
        }
    }

    /// Appends a byte string (major type 2).
    package static func append(bytes: some Collection<UInt8>, to output: inout [UInt8]) {
        appendHead(major: 2, UInt64(bytes.count), to: &output)
        output.append(contentsOf: bytes)
    }

    /// Appends a text string (major type 3) of UTF-8 bytes.
    package static func append(text: some Collection<UInt8>, to output: inout [UInt8]) {
        appendHead(major: 3, UInt64(text.count), to: &output)
        output.append(contentsOf: text)
    }

    private static func appendBigEndian(_ value: UInt64, bytes: Int, to output: inout [UInt8]) {
        for shift in stride(from: (bytes - 1) * 8, through: 0, by: -8) {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
