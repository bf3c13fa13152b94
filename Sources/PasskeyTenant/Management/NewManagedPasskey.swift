/// `POST /api/v2/users/{id}/authentication-methods`'s body for a passkey (auth0-passkey-api.md
/// §15.3).
///
/// ```
/// { "type": "passkey", "key_id": base64url, "public_key": base64 of the COSE_Key,
///   "user_handle": base64url, "aaguid"?: UUID, "relying_party_identifier"?: string,
///   "credential_device_type"?: "single_device" | "multi_device", "credential_backed_up"?: boolean,
///   "transports"?: [string], "identity_user_id"?: string, "user_agent"?: string, "name"?: string }
/// ```
///
/// Only `type` is required by Auth0's schema; the tenant needs `key_id`, `public_key` and
/// `user_handle` too **[local]**, and checks them when it builds the credential. Any other member
/// fails to decode and the caller answers 400 `invalid_body`.
struct NewManagedPasskey: Sendable, Hashable, Decodable {
    var type: String
    var keyID: String?
    var publicKey: String?
    var userHandle: String?
    var aaguid: String?
    var relyingPartyIdentifier: String?
    var credentialDeviceType: String?
    var credentialBackedUp: Bool?
    var transports: [String]?
    var identityUserID: String?
    var userAgent: String?
    var name: String?

    enum CodingKeys: String, CodingKey {
        case type, aaguid, transports, name
        case keyID = "key_id"
        case publicKey = "public_key"
        case userHandle = "user_handle"
        case relyingPartyIdentifier = "relying_party_identifier"
        case credentialDeviceType = "credential_device_type"
        case credentialBackedUp = "credential_backed_up"
        case identityUserID = "identity_user_id"
        case userAgent = "user_agent"
    }

    /// Decodes a body, refusing members the schema does not define.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the first unknown member.
    init(from decoder: any Decoder) throws {
        try AnyKey.refuseUnknownMembers(of: decoder, "an authentication method property") {
            CodingKeys(stringValue: $0) != nil
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        keyID = try container.decodeIfPresent(String.self, forKey: .keyID)
        publicKey = try container.decodeIfPresent(String.self, forKey: .publicKey)
        userHandle = try container.decodeIfPresent(String.self, forKey: .userHandle)
        aaguid = try container.decodeIfPresent(String.self, forKey: .aaguid)
        relyingPartyIdentifier = try container.decodeIfPresent(String.self, forKey: .relyingPartyIdentifier)
        credentialDeviceType = try container.decodeIfPresent(String.self, forKey: .credentialDeviceType)
        credentialBackedUp = try container.decodeIfPresent(Bool.self, forKey: .credentialBackedUp)
        transports = try container.decodeIfPresent([String].self, forKey: .transports)
        identityUserID = try container.decodeIfPresent(String.self, forKey: .identityUserID)
        userAgent = try container.decodeIfPresent(String.self, forKey: .userAgent)
        name = try container.decodeIfPresent(String.self, forKey: .name)
    }
}
