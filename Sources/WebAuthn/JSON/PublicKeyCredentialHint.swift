/// A relying party's hint about which authenticator to suggest (WebAuthn L3 §5.8.8).
///
/// ```
/// enum PublicKeyCredentialHint { "security-key", "client-device", "hybrid" };
/// ```
///
/// WebAuthn carries it as a `DOMString` and clients ignore values they do not know (WebAuthn L3
/// §2.1.1), so this is an open set of strings rather than a Swift `enum`: an unknown value decodes,
/// compares and re-encodes unchanged.
public struct PublicKeyCredentialHint:
    RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral
{
    /// The wire string.
    public let rawValue: String

    /// Wraps a wire string, known or not.
    ///
    /// - Parameter rawValue: the string as it appears in the JSON.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a string literal, as ``init(rawValue:)`` does.
    ///
    /// - Parameter value: the string as it appears in the JSON.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// A physical security key.
    public static let securityKey: Self = "security-key"

    /// A platform authenticator on the client device.
    public static let clientDevice: Self = "client-device"

    /// A general-purpose authenticator such as a phone, reached over hybrid transport.
    public static let hybrid: Self = "hybrid"
}
