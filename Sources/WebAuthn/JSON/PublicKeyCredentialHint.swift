/// A relying party's hint about which authenticator to suggest (WebAuthn L3 §5.8.8).
///
/// ```
/// enum PublicKeyCredentialHint { "security-key", "client-device", "hybrid" };
/// ```
///
/// An open set of strings (see ``OpenStringEnumeration``).
public struct PublicKeyCredentialHint: OpenStringEnumeration {
    /// The wire string.
    public let rawValue: String

    /// Wraps a wire string, known or not.
    ///
    /// - Parameter rawValue: the string as it appears in the JSON.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A physical security key.
    public static let securityKey: Self = "security-key"

    /// A platform authenticator on the client device.
    public static let clientDevice: Self = "client-device"

    /// A general-purpose authenticator such as a phone, reached over hybrid transport.
    public static let hybrid: Self = "hybrid"
}
