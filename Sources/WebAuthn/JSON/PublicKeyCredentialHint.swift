/// A relying party's hint about which authenticator to suggest (WebAuthn L3 §5.8.8).
///
/// ```
/// enum PublicKeyCredentialHint { "security-key", "client-device", "hybrid" };
/// ```
///
/// An open set of strings (see ``OpenStringEnumeration``).
public typealias PublicKeyCredentialHint = OpenStringEnumeration<PublicKeyCredentialHintValues>

extension PublicKeyCredentialHint {
    /// A physical security key.
    public static var securityKey: Self { "security-key" }

    /// A platform authenticator on the client device.
    public static var clientDevice: Self { "client-device" }

    /// A general-purpose authenticator such as a phone, reached over hybrid transport.
    public static var hybrid: Self { "hybrid" }
}
