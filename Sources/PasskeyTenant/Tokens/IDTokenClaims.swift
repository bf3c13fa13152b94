import JWTKit

/// The claims of the tenant's ID tokens (OpenID Connect Core 1.0 §2, §5.1; auth0-passkey-api.md
/// §6.5, §14.5): `iss` `https://DOMAIN/`, `aud` the client ID, `auth_time` and `amr` of the
/// passkey ceremony, the `nonce` of a code grant, the organization, and the profile claims the
/// granted scopes (`profile`, `email`, `phone`) release, with JSON booleans for the `_verified`
/// claims.
struct IDTokenClaims: JWTPayload, Hashable {
    /// The token's own claims: issuer, subject, audience, times, ceremony and organization.
    var token: TokenClaims
    /// The profile claims the granted scopes release, beside ``token`` in the same object.
    var claims: UserClaims

    /// The claims of an ID token that are not about the user's profile.
    struct TokenClaims: Sendable, Hashable, Codable {
        var iss: String
        var sub: String
        var aud: String
        var azp: String
        var iat: Int
        var exp: Int
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

        enum CodingKeys: String, CodingKey {
            case iss, sub, aud, azp, iat, exp, amr, nonce
            case authTime = "auth_time"
            case orgID = "org_id"
            case orgName = "org_name"
        }
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

extension IDTokenClaims {
    /// Reads both claim sets from the one object.
    init(from decoder: any Decoder) throws {
        token = try TokenClaims(from: decoder)
        claims = try UserClaims(from: decoder)
    }

    /// Writes both claim sets into one object: the token's first, then the profile's.
    func encode(to encoder: any Encoder) throws {
        try token.encode(to: encoder)
        try claims.encode(to: encoder)
    }
}
