public import FoundationEssentials

/// The claims of an ID token that ``IDTokenValidator`` checks (OpenID Connect Core 1.0 §2,
/// spec §14.5), as the token carries them.
///
/// `aud` may be a string or an array (RFC 7519 §4.1.3); it is always read as an array. Times are
/// NumericDate seconds (RFC 7519 §2).
public struct IDTokenClaims: Sendable, Hashable, Codable {
    /// `iss`.
    public let issuer: String?
    /// `sub`.
    public let subject: String?
    /// `aud`, one entry or several.
    public let audience: [String]
    /// `exp`.
    public let expiresAt: Date?
    /// `iat`.
    public let issuedAt: Date?
    /// `nonce`.
    public let nonce: String?
    /// `azp`.
    public let authorizedParty: String?
    /// `auth_time`.
    public let authTime: Date?
    /// `org_id`.
    public let organizationID: String?
    /// `org_name`.
    public let organizationName: String?

    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case subject = "sub"
        case audience = "aud"
        case expiresAt = "exp"
        case issuedAt = "iat"
        case nonce
        case authorizedParty = "azp"
        case authTime = "auth_time"
        case organizationID = "org_id"
        case organizationName = "org_name"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func date(_ key: CodingKeys) throws -> Date? {
            try container.decodeIfPresent(Double.self, forKey: key).map(Date.init(timeIntervalSince1970:))
        }
        issuer = try container.decodeIfPresent(String.self, forKey: .issuer)
        subject = try container.decodeIfPresent(String.self, forKey: .subject)
        if let one = try? container.decodeIfPresent(String.self, forKey: .audience) {
            audience = [one]
        } else {
            audience = try container.decodeIfPresent([String].self, forKey: .audience) ?? []
        }
        expiresAt = try date(.expiresAt)
        issuedAt = try date(.issuedAt)
        nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
        authorizedParty = try container.decodeIfPresent(String.self, forKey: .authorizedParty)
        authTime = try date(.authTime)
        organizationID = try container.decodeIfPresent(String.self, forKey: .organizationID)
        organizationName = try container.decodeIfPresent(String.self, forKey: .organizationName)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(issuer, forKey: .issuer)
        try container.encodeIfPresent(subject, forKey: .subject)
        try container.encode(audience, forKey: .audience)
        try container.encodeIfPresent(expiresAt?.timeIntervalSince1970, forKey: .expiresAt)
        try container.encodeIfPresent(issuedAt?.timeIntervalSince1970, forKey: .issuedAt)
        try container.encodeIfPresent(nonce, forKey: .nonce)
        try container.encodeIfPresent(authorizedParty, forKey: .authorizedParty)
        try container.encodeIfPresent(authTime?.timeIntervalSince1970, forKey: .authTime)
        try container.encodeIfPresent(organizationID, forKey: .organizationID)
        try container.encodeIfPresent(organizationName, forKey: .organizationName)
    }
}
