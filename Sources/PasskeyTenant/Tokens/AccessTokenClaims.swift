/// The claims of the tenant's access tokens (RFC 9068 §2.2, as Auth0 issues them).
///
/// `aud` is the API asked for, plus `https://DOMAIN/userinfo` when `openid` was granted; without
/// an audience it is the userinfo URL alone.
typealias AccessTokenClaims = JoinedClaims<RegisteredClaims, AccessTokenGrant>

/// An access token's own claims: what it grants, its ID, and how it was obtained.
struct AccessTokenGrant: Sendable, Hashable, Codable {
    var scope: String
    var jti: String
    /// The organization logged in through: its ID and its name (auth0-passkey-api.md §17).
    var orgID: String?
    var orgName: String?
    /// `client-credentials` on a Management API token (auth0-passkey-api.md §15.1), as Auth0 marks
    /// a token no user took part in.
    var gty: String? = nil
    /// The DPoP key the token is bound to (RFC 9449 §6.1; RFC 7800 §3.1); nil for a Bearer token.
    var cnf: Confirmation?

    enum CodingKeys: String, CodingKey {
        case scope, jti, gty
        case orgID = "org_id"
        case orgName = "org_name"
        case cnf
    }

    /// The scopes, split.
    var scopes: Set<String> { Set(scope.split(separator: " ").map(String.init)) }
}

/// A `cnf` claim naming a key by its JWK thumbprint (RFC 7800 §3.1; RFC 9449 §6.1: `jkt`).
struct Confirmation: Sendable, Hashable, Codable {
    var jkt: String
}
