/// How an authenticator is attached to the client (WebAuthn L3 §5.4.5).
///
/// ```
/// enum AuthenticatorAttachment { "platform", "cross-platform" };
/// ```
///
/// WebAuthn carries it as a `DOMString` and clients ignore values they do not know (WebAuthn L3
/// §2.1.1), so this is an open set of strings rather than a Swift `enum`: an unknown value decodes,
/// compares and re-encodes unchanged.
public struct AuthenticatorAttachment:
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

    /// Built into the client device, like this software authenticator's default profile.
    public static let platform: Self = "platform"

    /// Roaming: a security key or a phone reached over hybrid transport.
    public static let crossPlatform: Self = "cross-platform"
}
