import JWTKit

/// The claims of the tenant's ID tokens (OpenID Connect Core 1.0 §2, §5.1; auth0-passkey-api.md
/// §6.5): `iss` `https://DOMAIN/`, `aud` the client ID, and the profile claims the granted scopes
/// (`profile`, `email`, `phone`) release, with JSON booleans for the `_verified` claims.
struct IDTokenClaims: JWTPayload, Hashable {
    var iss: String
    var sub: String
    var aud: String
    var azp: String
    var iat: Int
    var exp: Int
    var orgID: String?
    var claims: UserClaims

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, azp, iat, exp
        case orgID = "org_id"
    }

    init(
        iss: String, sub: String, aud: String, azp: String, iat: Int, exp: Int, orgID: String?, claims: UserClaims
    ) {
        self.iss = iss
        self.sub = sub
        self.aud = aud
        self.azp = azp
        self.iat = iat
        self.exp = exp
        self.orgID = orgID
        self.claims = claims
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        iss = try container.decode(String.self, forKey: .iss)
        sub = try container.decode(String.self, forKey: .sub)
        aud = try container.decode(String.self, forKey: .aud)
        azp = try container.decode(String.self, forKey: .azp)
        iat = try container.decode(Int.self, forKey: .iat)
        exp = try container.decode(Int.self, forKey: .exp)
        orgID = try container.decodeIfPresent(String.self, forKey: .orgID)
        claims = try UserClaims(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(iss, forKey: .iss)
        try container.encode(sub, forKey: .sub)
        try container.encode(aud, forKey: .aud)
        try container.encode(azp, forKey: .azp)
        try container.encode(iat, forKey: .iat)
        try container.encode(exp, forKey: .exp)
        try container.encodeIfPresent(orgID, forKey: .orgID)
        try claims.encode(to: encoder)
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
