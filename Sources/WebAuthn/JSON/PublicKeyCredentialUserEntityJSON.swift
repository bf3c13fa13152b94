// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension PublicKeyCredentialUserEntityJSON: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("id", \.id), .member("name", \.name), .member("displayName", \.displayName),
        ])

    package static var unread: Self { Self(id: Base64URL([]), name: "", displayName: "") }
}

/// The user account a credential is created for, in JSON form (WebAuthn L3 §5.1.8, §5.4.3).
///
/// ```
/// dictionary PublicKeyCredentialUserEntityJSON {
///     required Base64URLString id;
///     required DOMString name;
///     required DOMString displayName;
/// };
/// ```
public struct PublicKeyCredentialUserEntityJSON: Sendable, Hashable, Codable {
    /// The user handle: opaque bytes, at most 64, that an assertion returns as `userHandle`.
    public var id: Base64URL
    /// A human-palatable identifier for the account, such as an email address.
    public var name: String
    /// A human-palatable name for the user, for display only.
    public var displayName: String

    /// Creates a user entity.
    ///
    /// - Parameters:
    ///   - id: the user handle.
    ///   - name: a human-palatable account identifier.
    ///   - displayName: a human-palatable name for display.
    public init(id: Base64URL, name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}
