import WebAuthn

/// Base64url text in a vector file, decoded (padded or not, as captures have it).
public struct B64Bytes: Decodable, Hashable, Sendable {
    /// The decoded bytes.
    public let bytes: [UInt8]

    /// Decodes a base64url string.
    ///
    /// - Parameter decoder: a decoder holding one base64url string.
    /// - Throws: when the value is not base64url text.
    public init(from decoder: any Decoder) throws {
        bytes = try Base64URL.decode(decoder.singleValueContainer().decode(String.self))
    }
}
