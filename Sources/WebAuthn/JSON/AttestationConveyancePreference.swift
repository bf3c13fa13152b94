/// What attestation a relying party wants to receive (WebAuthn L3 §5.4.7).
///
/// ```
/// enum AttestationConveyancePreference { "none", "indirect", "direct", "enterprise" };
/// ```
///
/// WebAuthn carries it as a `DOMString` and clients ignore values they do not know (WebAuthn L3
/// §2.1.1), so this is an open set of strings rather than a Swift `enum`: an unknown value decodes,
/// compares and re-encodes unchanged.
public struct AttestationConveyancePreference:
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

    /// No attestation: the client replaces any statement with `none` (the IDL's default).
    public static let none: Self = "none"

    /// An attestation the client may anonymize.
    public static let indirect: Self = "indirect"

    /// The authenticator's attestation statement, unchanged.
    public static let direct: Self = "direct"

    /// An attestation that may identify the authenticator individually.
    public static let enterprise: Self = "enterprise"
}
