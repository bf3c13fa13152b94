/// The type of a credential (WebAuthn L3 §5.8.2).
///
/// ```
/// enum PublicKeyCredentialType { "public-key" };
/// ```
///
/// An open set of strings (see ``OpenStringEnumeration``).
public typealias PublicKeyCredentialType = OpenStringEnumeration<PublicKeyCredentialTypeValues>

extension PublicKeyCredentialType {
    /// The only type WebAuthn L3 defines.
    public static var publicKey: Self { "public-key" }
}
