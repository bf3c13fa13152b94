// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension PublicKeyCredentialDescriptorJSON: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("type", \.type), .member("id", \.id), .member("transports", \.transports),
        ])

    package static var unread: Self { Self(id: Base64URL([])) }
}

/// A credential named in `excludeCredentials` or `allowCredentials`, in JSON form
/// (WebAuthn L3 §5.1.8, §5.8.3).
///
/// ```
/// dictionary PublicKeyCredentialDescriptorJSON {
///     required DOMString type;
///     required Base64URLString id;
///     sequence<DOMString> transports;
/// };
/// ```
public struct PublicKeyCredentialDescriptorJSON: Sendable, Hashable, Codable {
    /// The credential type, normally `public-key` (``PublicKeyCredentialType``).
    public var type: PublicKeyCredentialType
    /// The credential ID.
    public var id: Base64URL
    /// How the client might reach the authenticator that holds the credential, as a hint.
    public var transports: [AuthenticatorTransport]?

    /// Creates a credential descriptor.
    ///
    /// - Parameters:
    ///   - type: the credential type.
    ///   - id: the credential ID.
    ///   - transports: transport hints, or `nil` to omit the member.
    public init(
        type: PublicKeyCredentialType = .publicKey,
        id: Base64URL,
        transports: [AuthenticatorTransport]? = nil
    ) {
        self.type = type
        self.id = id
        self.transports = transports
    }
}
