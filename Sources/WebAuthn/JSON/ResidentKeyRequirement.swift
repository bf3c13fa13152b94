/// Whether a relying party wants a discoverable credential (WebAuthn L3 §5.4.6).
///
/// ```
/// enum ResidentKeyRequirement { "discouraged", "preferred", "required" };
/// ```
///
/// An open set of strings (see ``OpenStringEnumeration``).
public struct ResidentKeyRequirement: OpenStringEnumeration {
    /// The wire string.
    public let rawValue: String

    /// Wraps a wire string, known or not.
    ///
    /// - Parameter rawValue: the string as it appears in the JSON.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Prefer a server-side (non-discoverable) credential.
    public static let discouraged: Self = "discouraged"

    /// Prefer a discoverable credential, but accept a server-side one.
    public static let preferred: Self = "preferred"

    /// Fail unless the credential is discoverable.
    public static let required: Self = "required"
}
