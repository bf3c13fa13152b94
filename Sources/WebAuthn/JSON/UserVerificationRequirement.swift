/// How strongly a relying party wants the user verified (WebAuthn L3 §5.8.6).
///
/// ```
/// enum UserVerificationRequirement { "required", "preferred", "discouraged" };
/// ```
///
/// An open set of strings (see ``OpenStringEnumeration``).
public typealias UserVerificationRequirement = OpenStringEnumeration<UserVerificationRequirementValues>

extension UserVerificationRequirement {
    /// The ceremony fails unless the authenticator verifies the user (UV flag set).
    public static var required: Self { "required" }

    /// Verify the user if the authenticator can; the ceremony does not fail otherwise.
    public static var preferred: Self { "preferred" }

    /// Do not verify the user, for example to spare a PIN prompt.
    public static var discouraged: Self { "discouraged" }
}
