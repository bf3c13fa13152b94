import FoundationEssentials
import WebAuthn

/// A passkey as the Management API returns it (auth0-passkey-api.md §15.3): the created method
/// and each listed one.
///
/// The keys of the posted body plus `id`, `created_at` and `confirmed` (always true: created
/// methods are confirmed at once); `public_key` is the COSE_Key in padded standard base64, as
/// Auth0 returns it, `key_id` and `user_handle` base64url without padding.
struct ManagedAuthenticationMethod: Sendable, Hashable, Codable {
    var id: String
    var type = "passkey"
    var confirmed = true
    var name: String?
    var keyID: String
    var publicKey: String
    var userHandle: String
    var aaguid: String
    var relyingPartyIdentifier: String
    var credentialDeviceType: String
    var credentialBackedUp: Bool
    var transports: [String]?
    var identityUserID: String
    var userAgent: String?
    var createdAt: String
    var lastAuthAt: String?

    enum CodingKeys: String, CodingKey {
        case id, type, confirmed, name, aaguid, transports
        case keyID = "key_id"
        case publicKey = "public_key"
        case userHandle = "user_handle"
        case relyingPartyIdentifier = "relying_party_identifier"
        case credentialDeviceType = "credential_device_type"
        case credentialBackedUp = "credential_backed_up"
        case identityUserID = "identity_user_id"
        case userAgent = "user_agent"
        case createdAt = "created_at"
        case lastAuthAt = "last_auth_at"
    }

    /// The method describing `credential`, owned by `user`, under RP ID `relyingPartyID`: My
    /// Account's view of it (``AuthenticationMethod``) under the Management API's names.
    init(_ credential: TenantCredential, user: TenantUser, relyingPartyID: String) {
        let method = AuthenticationMethod(credential, user: user, relyingPartyID: relyingPartyID)
        id = method.id
        name = method.name
        keyID = method.keyID
        publicKey = method.publicKey
        userHandle = method.userHandle
        aaguid = method.aaguid
        relyingPartyIdentifier = relyingPartyID
        credentialDeviceType = method.credentialDeviceType
        credentialBackedUp = method.credentialBackedUp
        transports = method.transports
        identityUserID = method.identityUserID
        userAgent = method.userAgent
        createdAt = method.createdAt
        lastAuthAt = method.lastAuthAt
    }
}

/// `GET /api/v2/users/{id}/authentication-methods?include_totals=true`'s answer
/// (auth0-passkey-api.md §15.3): one page and where it sits.
///
/// ```
/// { "authenticators": [method], "start": number, "limit": number, "total": number }
/// ```
struct ManagedAuthenticationMethodPage: Sendable, Hashable, Codable {
    var authenticators: [ManagedAuthenticationMethod]
    /// The index of the page's first method: `page × per_page`.
    var start: Int
    /// `per_page`.
    var limit: Int
    /// How many methods the user has in all.
    var total: Int
}
