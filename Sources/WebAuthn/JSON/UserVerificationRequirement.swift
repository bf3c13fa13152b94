/// How strongly a relying party wants the user verified (WebAuthn L3 §5.8.6).
///
/// ```
/// enum UserVerificationRequirement { "required", "preferred", "discouraged" };
/// ```
///
/// WebAuthn carries it as a `DOMString` and clients ignore values they do not know (WebAuthn L3
/// §2.1.1), so this is an open set of strings rather than a Swift `enum`: an unknown value decodes,
/// compares and re-encodes unchanged.
public struct UserVerificationRequirement:
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

    /// The ceremony fails unless the authenticator verifies the user (UV flag set).
    public static let required: Self = "required"

    /// Verify the user if the authenticator can; the ceremony does not fail otherwise.
    public static let preferred: Self = "preferred"

    /// Do not verify the user, for example to spare a PIN prompt.
    public static let discouraged: Self = "discouraged"
}
