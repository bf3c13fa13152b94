/// Bytes that travel as base64url text (RFC 4648 §5) in WebAuthn Level 3 JSON and Auth0 bodies.
///
/// Encoding never pads, as `PublicKeyCredential.toJSON()` and Auth0's SDK do. Decoding is as lenient
/// as Auth0's SDK and py_webauthn: padded or unpadded, and `+`/`/` read as `-`/`_` (some captured
/// TPM responses use the standard alphabet). It rejects anything else: white space, a length of
/// 1 mod 4, padding in the middle, or non-zero padding bits.
public struct Base64URL: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The decoded bytes.
    public let bytes: [UInt8]

    /// Wraps bytes to be sent as base64url.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Decodes base64url text, padded or not.
    ///
    /// - Throws: `WebAuthnError.Code.malformedEncoding` naming the first offending character.
    public init(string: String) throws(WebAuthnError) {
        self.bytes = try Self.decode(string)
    }

    /// The unpadded base64url text.
    public var string: String { Self.encode(bytes) }

    public var description: String { string }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self.bytes = try Self.decode(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(index)
        }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()

    /// Encodes without padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output = [UInt8]()
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        appendEncoding(bytes, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the unpadded base64url text of `bytes` to `output`, as UTF-8.
    ///
    /// Concrete rather than generic, so that callers in other modules run code made for arrays
    /// (a generic call across modules goes through the value witnesses byte by byte).
    package static func append(_ bytes: [UInt8], to output: inout [UInt8]) {
        append(bytes[...], to: &output)
    }

    /// Appends the unpadded base64url text of `bytes` to `output`, as UTF-8.
    package static func append(_ bytes: ArraySlice<UInt8>, to output: inout [UInt8]) {
        let start = output.count
        let count = (bytes.count * 4 + 2) / 3
        output.append(contentsOf: repeatElement(0, count: count))
        let table = alphabet
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { output in
                    var index = 0
                    var position = start
                    while index + 3 <= input.count {
                        let chunk =
                            UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                        output[position] = table[Int(chunk >> 18 & 0x3F)]
                        output[position + 1] = table[Int(chunk >> 12 & 0x3F)]
                        output[position + 2] = table[Int(chunk >> 6 & 0x3F)]
                        output[position + 3] = table[Int(chunk & 0x3F)]
                        index += 3
                        position += 4
                    }
                    let left = input.count - index
                    guard left > 0 else { return }
                    let chunk = UInt32(input[index]) << 16 | (left == 2 ? UInt32(input[index + 1]) << 8 : 0)
                    output[position] = table[Int(chunk >> 18 & 0x3F)]
                    output[position + 1] = table[Int(chunk >> 12 & 0x3F)]
                    if left == 2 {
                        output[position + 2] = table[Int(chunk >> 6 & 0x3F)]
                    }
                }
            }
        }
    }

    /// Appends the unpadded base64url text of `bytes` to `output`, as UTF-8.
    private static func appendEncoding(_ bytes: some Collection<UInt8>, to output: inout [UInt8]) {
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let chunk = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            if second != nil { output.append(alphabet[Int(chunk >> 6 & 0x3F)]) }
            if third != nil { output.append(alphabet[Int(chunk & 0x3F)]) }
        }
    }

    /// Whether `text` is base64url in the one form ``encode(_:)`` writes: unpadded, the URL
    /// alphabet only, a possible length and zero padding bits. Such text is what encoding its
    /// decoded bytes gives back, byte for byte.
    ///
    /// - Parameter text: the text, as UTF-8.
    /// - Returns: whether it is canonical.
    package static func isCanonical(_ text: ArraySlice<UInt8>) -> Bool {
        guard text.count % 4 != 1 else {
            return false
        }
        var last: UInt8 = 0
        for character in text {
            last = values[Int(character)]
            guard last < 64, character != UInt8(ascii: "+"), character != UInt8(ascii: "/") else {
                return false
            }
        }
        switch text.count % 4 {
        case 2: return last & 0x0F == 0
        case 3: return last & 0x03 == 0
        default: return true
        }
    }

    /// Decodes base64url text in the form ``isCanonical(_:)`` accepts; `nil` for any other text,
    /// which ``decode(_:ignoringPaddingBits:)`` may still read.
    ///
    /// - Parameter text: the text, as UTF-8.
    /// - Returns: the bytes, or `nil`.
    package static func decodeCanonical(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard isCanonical(text) else {
            return nil
        }
        var output = [UInt8]()
        output.reserveCapacity(text.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for character in text {
            buffer = buffer << 6 | UInt32(values[Int(character)])
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return output
    }

    /// Decodes padded or unpadded base64url.
    ///
    /// - Parameters:
    ///   - text: the base64url text.
    ///   - ignoringPaddingBits: whether non-zero bits in the last character's unused low bits are
    ///     dropped, as a browser's forgiving-base64 decoder drops them, instead of refused. A
    ///     relying party's own challenge text is read this way, so that a client's canonical
    ///     re-encoding compares as WebAuthn L3 §7.1 step 8 says rather than failing to decode.
    public static func decode(_ text: String, ignoringPaddingBits: Bool = false) throws(WebAuthnError) -> [UInt8] {
        var characters = Array(text.utf8)
        if characters.count.isMultiple(of: 4) {
            for _ in 0..<2 where characters.last == UInt8(ascii: "=") {
                characters.removeLast()
            }
        }
        guard characters.count % 4 != 1 else {
            throw WebAuthnError(.malformedEncoding, "base64url text has an impossible length (\(text.utf8.count))")
        }
        var output = [UInt8]()
        output.reserveCapacity(characters.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for (index, character) in characters.enumerated() {
            let value = values[Int(character)]
            guard value != 0xFF else {
                throw WebAuthnError(
                    .malformedEncoding, "'\(Character(Unicode.Scalar(character)))' is not a base64url character",
                    offset: index)
            }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        guard ignoringPaddingBits || buffer & ((1 << UInt32(bits)) - 1) == 0 else {
            throw WebAuthnError(.malformedEncoding, "base64url text has non-zero padding bits")
        }
        return output
    }
}
