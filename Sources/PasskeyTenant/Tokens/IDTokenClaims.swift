/// The claims of the tenant's ID tokens (OpenID Connect Core 1.0 §2, §5.1; auth0-passkey-api.md
/// §6.5, §14.5): `iss` `https://DOMAIN/`, `aud` the client ID, `auth_time` and `amr` of the
/// passkey ceremony, the `nonce` of a code grant, the login session's `sid`, the organization,
/// and the profile claims the
/// granted scopes (`profile`, `email`, `phone`) release, with JSON booleans for the `_verified`
/// claims.
typealias IDTokenClaims = JoinedClaims<RegisteredClaims, JoinedClaims<IDTokenLogin, UserClaims>>

/// The claims of an ID token about the login: when and how, the code grant's nonce, the
/// organization.
struct IDTokenLogin: Sendable, Hashable, Codable {
    /// When the user performed the ceremony, in seconds (OpenID Connect Core 1.0 §2).
    var authTime: Int?
    /// How: `["webauthn"]` (RFC 8176 has no passkey value; Auth0 documents none), on every ID
    /// token the tenant issues: its only way to log in is a passkey. **[local]**
    var amr: [String]? = ["webauthn"]
    /// The `/authorize` request's `nonce`, code grant only (OpenID Connect Core 1.0 §3.1.3.7).
    var nonce: String?
    /// The ID of the organization logged in through (auth0-passkey-api.md §14.5, §17).
    var orgID: String?
    /// The name of the organization logged in through, lower case (auth0-passkey-api.md §14.5, §17).
    var orgName: String?
    /// The login session's ID (OpenID Connect Front-Channel Logout 1.0 §3, Back-Channel Logout
    /// 1.0 §2.1; Auth0 sets it): the same on every ID token of one session, its codes' and its
    /// refreshes' (``LoginSession/sessionID``).
    var sid: String?

    enum CodingKeys: String, CodingKey {
        case amr, nonce, sid
        case authTime = "auth_time"
        case orgID = "org_id"
        case orgName = "org_name"
    }
}
