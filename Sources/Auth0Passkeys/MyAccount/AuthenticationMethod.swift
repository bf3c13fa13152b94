import FoundationEssentials

/// One of the user's authentication methods, as `GET /me/v1/authentication-methods` lists them
/// (spec §5.5): `id`, `type`, `created_at` and `usage` for every kind, plus the passkey members
/// when it is a passkey.
public struct AuthenticationMethod: Sendable, Hashable, Decodable {
    /// `id`, such as `passkey|dev_7Hq2Nw0cYtR4`.
    public let id: String
    /// `type`: `passkey`, `password`, `totp`, …
    public let type: String
    /// `created_at`, as sent (ISO 8601).
    public let createdAt: String
    /// `usage`: `primary`, `secondary`.
    public let usage: [String]
    /// `name`, when the user named it.
    public let name: String?
    /// `identity_user_id`.
    public let userIdentityId: String?
    /// `key_id`: a passkey's credential ID, base64url.
    public let keyId: String?
    /// `credential_device_type`.
    public let credentialDeviceType: String?
    /// `credential_backed_up`.
    public let credentialBackedUp: Bool?
    /// `aaguid`.
    public let aaguid: String?
    /// `relying_party_id`.
    public let relyingPartyIdentifier: String?

    private enum CodingKeys: String, CodingKey {
        case id, type, usage, name, aaguid
        case createdAt = "created_at"
        case userIdentityId = "identity_user_id"
        case keyId = "key_id"
        case credentialDeviceType = "credential_device_type"
        case credentialBackedUp = "credential_backed_up"
        case relyingPartyIdentifier = "relying_party_id"
    }
}

/// `{"authentication_methods": [ … ]}`.
struct AuthenticationMethodList: Decodable, Sendable {
    let methods: [AuthenticationMethod]

    private enum CodingKeys: String, CodingKey {
        case methods = "authentication_methods"
    }
}
