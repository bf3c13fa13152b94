/// Whether a relying party wants a discoverable credential (WebAuthn L3 §5.4.6).
///
/// ```
/// enum ResidentKeyRequirement { "discouraged", "preferred", "required" };
/// ```
///
/// WebAuthn carries it as a `DOMString` and clients ignore values they do not know (WebAuthn L3
/// §2.1.1), so this is an open set of strings rather than a Swift `enum`: an unknown value decodes,
/// compares and re-encodes unchanged.
public struct ResidentKeyRequirement:
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

    /// Prefer a server-side (non-discoverable) credential.
    public static let discouraged: Self = "discouraged"

    /// Prefer a discoverable credential, but accept a server-side one.
    public static let preferred: Self = "preferred"

    /// Fail unless the credential is discoverable.
    public static let required: Self = "required"
}
