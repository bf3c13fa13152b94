import WebAuthn

/// Hex text in a vector file, decoded.
public struct HexBytes: Decodable, Hashable, Sendable, CustomStringConvertible {
    /// The decoded bytes.
    public let bytes: [UInt8]

    /// Decodes a hex string.
    ///
    /// - Parameter decoder: a decoder holding one string of hex digits.
    /// - Throws: when the value is not a string of an even number of hex digits.
    public init(from decoder: any Decoder) throws {
        bytes = try Hex.decode(decoder.singleValueContainer().decode(String.self))
    }

    /// The bytes as lowercase hex.
    public var description: String { Hex.encode(bytes) }
}
