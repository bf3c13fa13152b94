/// What attestation a relying party wants to receive (WebAuthn L3 §5.4.7).
///
/// ```
/// enum AttestationConveyancePreference { "none", "indirect", "direct", "enterprise" };
/// ```
///
/// An open set of strings (see ``OpenStringEnumeration``).
public struct AttestationConveyancePreference: OpenStringEnumeration {
    /// The wire string.
    public let rawValue: String

    /// Wraps a wire string, known or not.
    ///
    /// - Parameter rawValue: the string as it appears in the JSON.
    public init(rawValue: String) {
        self.rawValue = rawValue
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
