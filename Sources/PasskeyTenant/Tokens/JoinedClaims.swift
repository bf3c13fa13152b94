import JWTKit

/// Two claim sets written side by side in one JSON object, as a JWT's payload holds its claims
/// (RFC 7519 §4): a token's ``RegisteredClaims`` and its kind's own (an access token's
/// ``AccessTokenGrant``; an ID token's ``IDTokenLogin`` joined with the user's ``UserClaims``).
///
/// The members of both read as the pair's own (`claims.sub`, `claims.jti`, `claims.scopes`).
@dynamicMemberLookup
struct JoinedClaims<First: Sendable & Hashable & Codable, Second: Sendable & Hashable & Codable>: Sendable,
    Hashable, Codable
{
    var first: First
    var second: Second

    /// Joins two claim sets.
    init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    subscript<T>(dynamicMember keyPath: KeyPath<First, T>) -> T { first[keyPath: keyPath] }

    subscript<T>(dynamicMember keyPath: KeyPath<Second, T>) -> T { second[keyPath: keyPath] }

    /// Reads both sets from the one object.
    init(from decoder: any Decoder) throws {
        first = try First(from: decoder)
        second = try Second(from: decoder)
    }

    /// Writes both sets into one object, the first's first.
    func encode(to encoder: any Encoder) throws {
        try first.encode(to: encoder)
        try second.encode(to: encoder)
    }
}

extension JoinedClaims: JWTPayload where First == RegisteredClaims {
    /// Signature checks only; the tenant checks issuer, audience and expiry against its own
    /// clock where it accepts the token.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The claims every token the tenant signs carries (RFC 7519 §4.1; `azp`: OpenID Connect Core
/// 1.0 §2): `iss` `https://DOMAIN/`, the user's ID (or the client's, `…@clients`) as `sub`, the
/// client as `azp`, and the issue and expiry times in seconds.
struct RegisteredClaims: Sendable, Hashable, Codable {
    var iss: String
    var sub: String
    /// An ID token's client ID; an access token's API, with the userinfo URL when `openid` was
    /// granted.
    var aud: Audience
    var azp: String
    var iat: Int
    var exp: Int
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
