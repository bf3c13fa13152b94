/// The type of a credential (WebAuthn L3 §5.8.2).
///
/// ```
/// enum PublicKeyCredentialType { "public-key" };
/// ```
///
/// An open set of strings (see ``OpenStringEnumeration``).
public struct PublicKeyCredentialType: OpenStringEnumeration {
    /// The wire string.
    public let rawValue: String

    /// Wraps a wire string, known or not.
    ///
    /// - Parameter rawValue: the string as it appears in the JSON.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The only type WebAuthn L3 defines.
    public static let publicKey: Self = "public-key"
}
