import JWTKit

/// The claims of the tenant's access tokens (RFC 9068 §2.2, as Auth0 issues them).
///
/// `aud` is the API asked for, plus `https://DOMAIN/userinfo` when `openid` was granted; without
/// an audience it is the userinfo URL alone.
struct AccessTokenClaims: JWTPayload, Hashable {
    var iss: String
    var sub: String
    var aud: Audience
    var azp: String
    var scope: String
    var iat: Int
    var exp: Int
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
        case iss, sub, aud, azp, scope, iat, exp, jti, gty
        case orgID = "org_id"
        case orgName = "org_name"
        case cnf
    }

    /// The scopes, split.
    var scopes: Set<String> { Set(scope.split(separator: " ").map(String.init)) }

    /// Signature checks only; the tenant checks issuer, audience and expiry against its own
    /// clock where it accepts the token.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// An `aud` claim: one string, or an array of them (RFC 7519 §4.1.3).
struct Audience: Sendable, Hashable, Codable {
    var values: [String]

    init(_ values: [String]) {
        self.values = values
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let one = try? container.decode(String.self) {
            values = [one]
        } else {
            values = try container.decode([String].self)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if values.count == 1 {
            try container.encode(values[0])
        } else {
            try container.encode(values)
        }
    }
}

/// A `cnf` claim naming a key by its JWK thumbprint (RFC 7800 §3.1; RFC 9449 §6.1: `jkt`).
struct Confirmation: Sendable, Hashable, Codable {
    var jkt: String
}
