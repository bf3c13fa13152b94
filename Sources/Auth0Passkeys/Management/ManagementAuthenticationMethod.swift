/// An authentication method as the Management API answers it (spec §15.3): `id` and `type` for
/// every kind, the passkey members when it is a passkey. Listed items add `confirmed`.
///
/// ```json
/// {"id":"passkey|dev_7Hq2Nw0cYtR4","type":"passkey","confirmed":true,"key_id":"cpZVU-ov17HGlsjBkf3mSqJ5pDs",
///  "public_key":"pQECAyYgASFYIMmZ…9lg=","user_handle":"uOKcVB2PU486niGkaj1TzCo0a15AkM1QD1Z_3WGANJI",
///  "aaguid":"00000000-0000-0000-0000-000000000000","relying_party_identifier":"login.example.com",
///  "credential_device_type":"multi_device","credential_backed_up":true,"transports":["internal"],
///  "created_at":"2025-05-15T13:29:32.321Z"}
/// ```
///
/// The members are kept as sent.
public struct ManagementAuthenticationMethod: Sendable, Hashable, Decodable {
    /// `id`, such as `passkey|dev_7Hq2Nw0cYtR4`.
    public let id: String
    /// `type`: `passkey`, `totp`, `email`, …
    public let type: String
    /// `confirmed`, in listings.
    public let confirmed: Bool?
    /// `name`.
    public let name: String?
    /// `created_at`, as sent (ISO 8601).
    public let createdAt: String?
    /// `key_id`: the credential ID, base64url.
    public let keyId: String?
    /// `public_key`: the COSE_Key, standard base64.
    public let publicKey: String?
    /// `user_handle`: base64url.
    public let userHandle: String?
    /// `aaguid`.
    public let aaguid: String?
    /// `relying_party_identifier`.
    public let relyingPartyIdentifier: String?
    /// `credential_device_type`: `single_device` or `multi_device`.
    public let credentialDeviceType: String?
    /// `credential_backed_up`.
    public let credentialBackedUp: Bool?
    /// `transports`.
    public let transports: [String]?
    /// `identity_user_id`.
    public let identityUserId: String?
    /// `user_agent`.
    public let userAgent: String?

    private enum CodingKeys: String, CodingKey {
        case id, type, confirmed, name, aaguid, transports
        case createdAt = "created_at"
        case keyId = "key_id"
        case publicKey = "public_key"
        case userHandle = "user_handle"
        case relyingPartyIdentifier = "relying_party_identifier"
        case credentialDeviceType = "credential_device_type"
        case credentialBackedUp = "credential_backed_up"
        case identityUserId = "identity_user_id"
        case userAgent = "user_agent"
    }
}
