/// How strongly a relying party wants the user verified (WebAuthn L3 §5.8.6).
///
/// ```
/// enum UserVerificationRequirement { "required", "preferred", "discouraged" };
/// ```
///
/// An open set of strings (see ``OpenStringEnumeration``).
public struct UserVerificationRequirement: OpenStringEnumeration {
    /// The wire string.
    public let rawValue: String

    /// Wraps a wire string, known or not.
    ///
    /// - Parameter rawValue: the string as it appears in the JSON.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The ceremony fails unless the authenticator verifies the user (UV flag set).
    public static let required: Self = "required"

    /// Verify the user if the authenticator can; the ceremony does not fail otherwise.
    public static let preferred: Self = "preferred"

    /// Do not verify the user, for example to spare a PIN prompt.
    public static let discouraged: Self = "discouraged"
}
