/// Whether a relying party wants a discoverable credential (WebAuthn L3 §5.4.6).
///
/// ```
/// enum ResidentKeyRequirement { "discouraged", "preferred", "required" };
/// ```
///
/// An open set of strings (see ``OpenStringEnumeration``).
public typealias ResidentKeyRequirement = OpenStringEnumeration<ResidentKeyRequirementValues>

extension ResidentKeyRequirement {
    /// Prefer a server-side (non-discoverable) credential.
    public static var discouraged: Self { "discouraged" }

    /// Prefer a discoverable credential, but accept a server-side one.
    public static var preferred: Self { "preferred" }

    /// Fail unless the credential is discoverable.
    public static var required: Self { "required" }
}
