/// How an authenticator is attached to the client (WebAuthn L3 §5.4.5).
///
/// ```
/// enum AuthenticatorAttachment { "platform", "cross-platform" };
/// ```
///
/// An open set of strings (see ``OpenStringEnumeration``).
public struct AuthenticatorAttachment: OpenStringEnumeration {
    /// The wire string.
    public let rawValue: String

    /// Wraps a wire string, known or not.
    ///
    /// - Parameter rawValue: the string as it appears in the JSON.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Built into the client device, like this software authenticator's default profile.
    public static let platform: Self = "platform"

    /// Roaming: a security key or a phone reached over hybrid transport.
    public static let crossPlatform: Self = "cross-platform"
}
