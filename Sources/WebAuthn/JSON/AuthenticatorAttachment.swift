/// How an authenticator is attached to the client (WebAuthn L3 §5.4.5).
///
/// ```
/// enum AuthenticatorAttachment { "platform", "cross-platform" };
/// ```
///
/// An open set of strings (see ``OpenStringEnumeration``).
public typealias AuthenticatorAttachment = OpenStringEnumeration<AuthenticatorAttachmentValues>

extension AuthenticatorAttachment {
    /// Built into the client device, like this software authenticator's default profile.
    public static var platform: Self { "platform" }

    /// Roaming: a security key or a phone reached over hybrid transport.
    public static var crossPlatform: Self { "cross-platform" }
}
