package import WebAuthn

/// A secret: an `auth_session`, a refresh token or an access token, a password, a CAPTCHA answer.
///
/// Whoever holds one can act as its user, so it never prints: `description` is `<redacted>` and
/// the mirror is empty, so `dump` and string interpolation show nothing of it, not even a hash of
/// it, which for a password would be an offline guess check (STYLE §5). The tenant stores only
/// ``digest``, never the text.
public struct Secret: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The secret text as it travels on the wire.
    public let text: String

    /// Wraps a secret received or about to be sent.
    public init(_ text: String) {
        self.text = text
    }

    /// A new secret of `byteCount` random bytes, as unpadded base64url.
    static func random(byteCount: Int = 32) -> Secret {
        Secret(Base64URL.encode(SecureRandom.bytes(byteCount)))
    }

    /// SHA-256 of the text: the key the tenant stores it under.
    var digest: [UInt8] { SHA256Digest.hash(Array(text.utf8)) }

    public var description: String { "<redacted>" }

    public var debugDescription: String { description }

    public var customMirror: Mirror { Mirror(self, children: [:]) }

    public init(from decoder: any Decoder) throws {
        self.text = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension Secret: JSONReadable, JSONWritable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        text = try scanner.string()
    }

    package func write(to writer: inout JSONWriter) {
        writer.string(text)
    }
}
