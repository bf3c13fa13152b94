/// The type of a credential (WebAuthn L3 §5.8.2).
///
/// ```
/// enum PublicKeyCredentialType { "public-key" };
/// ```
///
/// WebAuthn carries it as a `DOMString` and clients ignore values they do not know (WebAuthn L3
/// §2.1.1), so this is an open set of strings rather than a Swift `enum`: an unknown value decodes,
/// compares and re-encodes unchanged.
public struct PublicKeyCredentialType:
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

    /// The only type WebAuthn L3 defines.
    public static let publicKey: Self = "public-key"
}
