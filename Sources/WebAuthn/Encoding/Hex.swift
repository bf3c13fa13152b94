/// Lower-case hexadecimal, as the test vectors and `passkey inspect` write bytes.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Encodes bytes as lower-case hex.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output = [UInt8]()
        for byte in bytes {
            append(byte, to: &output)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the two lower-case hex digits of `byte` to `output`, as UTF-8.
    package static func append(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(digits[Int(byte >> 4)])
        output.append(digits[Int(byte & 0x0F)])
    }

    /// Decodes hex of either case.
    ///
    /// - Throws: `WebAuthnError.Code.malformedEncoding` for an odd length or a non-hex character.
    public static func decode(_ text: String) throws(WebAuthnError) -> [UInt8] {
        let characters = Array(text.utf8)
        guard characters.count.isMultiple(of: 2) else {
            throw WebAuthnError(.malformedEncoding, "hex text has an odd length (\(characters.count))")
        }
        var output = [UInt8]()
        output.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else {
                throw WebAuthnError(.malformedEncoding, "not a hex digit", offset: index)
            }
            output.append(high << 4 | low)
            index += 2
        }
        return output
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
