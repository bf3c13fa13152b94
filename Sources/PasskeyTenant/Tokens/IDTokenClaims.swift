import JWTKit

/// The claims of the tenant's ID tokens (OpenID Connect Core 1.0 §2, §5.1; auth0-passkey-api.md
/// §6.5, §14.5): `iss` `https://DOMAIN/`, `aud` the client ID, `auth_time` and `amr` of the
/// passkey ceremony, the `nonce` of a code grant, the organization, and the profile claims the
/// granted scopes (`profile`, `email`, `phone`) release, with JSON booleans for the `_verified`
/// claims.
struct IDTokenClaims: JWTPayload, Hashable {
    var iss: String
    var sub: String
    var aud: String
    var azp: String
    var iat: Int
    var exp: Int
    /// When the user performed the ceremony, in seconds (OpenID Connect Core 1.0 §2).
    var authTime: Int?
    /// How: `["webauthn"]` (RFC 8176 has no passkey value; Auth0 documents none). **[local]**
    var amr: [String]?
    /// The `/authorize` request's `nonce`, code grant only (OpenID Connect Core 1.0 §3.1.3.7).
    var nonce: String?
    /// The ID of the organization logged in through (auth0-passkey-api.md §14.5, §17).
    var orgID: String?
    /// The name of the organization logged in through, lower case (auth0-passkey-api.md §14.5, §17).
    var orgName: String?
    var claims: UserClaims

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, azp, iat, exp, amr, nonce
        case authTime = "auth_time"
        case orgID = "org_id"
        case orgName = "org_name"
    }

    /// The `amr` of every ID token the tenant issues: its only way to log in is a passkey.
    static let webAuthnMethods = ["webauthn"]

    init(
        iss: String, sub: String, aud: String, azp: String, iat: Int, exp: Int, authTime: Int?, nonce: String?,
        organization: TenantOrganization?, claims: UserClaims
    ) {
        self.iss = iss
        self.sub = sub
        self.aud = aud
        self.azp = azp
        self.iat = iat
        self.exp = exp
        self.authTime = authTime
        self.amr = Self.webAuthnMethods
        self.nonce = nonce
        self.orgID = organization?.id
        self.orgName = organization?.name
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
        authTime = try container.decodeIfPresent(Int.self, forKey: .authTime)
        amr = try container.decodeIfPresent([String].self, forKey: .amr)
        nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
        orgID = try container.decodeIfPresent(String.self, forKey: .orgID)
        orgName = try container.decodeIfPresent(String.self, forKey: .orgName)
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
        try container.encodeIfPresent(authTime, forKey: .authTime)
        try container.encodeIfPresent(amr, forKey: .amr)
        try container.encodeIfPresent(nonce, forKey: .nonce)
        try container.encodeIfPresent(orgID, forKey: .orgID)
        try container.encodeIfPresent(orgName, forKey: .orgName)
        try claims.encode(to: encoder)
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
