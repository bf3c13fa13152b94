// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension PublicKeyCredentialRpEntity: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("name", \.name), .member("id", \.id),
        ])

    package static var unread: Self { Self(name: "") }
}

/// The relying party a credential is created for (WebAuthn L3 §5.4.2, with `name` from §5.4.1).
///
/// ```
/// dictionary PublicKeyCredentialRpEntity : PublicKeyCredentialEntity {
///     DOMString id;
/// };
/// dictionary PublicKeyCredentialEntity {
///     required DOMString name;
/// };
/// ```
public struct PublicKeyCredentialRpEntity: Sendable, Hashable, Codable {
    /// A human-palatable name for the relying party, for display only.
    public var name: String
    /// The RP ID; when absent the client uses the caller origin's effective domain.
    public var id: String?

    /// Creates a relying-party entity.
    ///
    /// - Parameters:
    ///   - name: a human-palatable name, for display only.
    ///   - id: the RP ID, or `nil` for the origin's effective domain.
    public init(name: String, id: String? = nil) {
        self.name = name
        self.id = id
    }
}
