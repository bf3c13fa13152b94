public import FoundationEssentials
public import WebAuthn

/// The OpenID Connect claims of a user: the answer of `GET /userinfo`, or the payload of a stored
/// ID token (spec §6.3, §9).
///
/// `sub` is required; the standard claims below are read when they have the right type (a claim
/// of another type is left out, as the SDK does); every other claim is in ``customClaims``.
public struct UserInfo: Sendable, Hashable, Decodable {
    /// `sub`: the user ID, such as `auth0|65f0c2d1…`.
    public let sub: String
    /// `name`.
    public let name: String?
    /// `given_name`.
    public let givenName: String?
    /// `family_name`.
    public let familyName: String?
    /// `middle_name`.
    public let middleName: String?
    /// `nickname`.
    public let nickname: String?
    /// `preferred_username`.
    public let preferredUsername: String?
    /// `profile`: a URL.
    public let profile: URL?
    /// `picture`: a URL.
    public let picture: URL?
    /// `website`: a URL.
    public let website: URL?
    /// `email`.
    public let email: String?
    /// `email_verified`.
    public let emailVerified: Bool?
    /// `gender`.
    public let gender: String?
    /// `birthdate`.
    public let birthdate: String?
    /// `zoneinfo`: an IANA time zone name.
    public let zoneinfo: String?
    /// `locale`.
    public let locale: String?
    /// `phone_number`.
    public let phoneNumber: String?
    /// `phone_number_verified`.
    public let phoneNumberVerified: Bool?
    /// `address`: its string members.
    public let address: [String: String]?
    /// `updated_at`, when it is an ISO 8601 date.
    public let updatedAt: Date?
    /// Every other claim.
    public let customClaims: [String: JSONValue]

    static let standardClaims: Set<String> = [
        "sub", "name", "given_name", "family_name", "middle_name", "nickname", "preferred_username", "profile",
        "picture", "website", "email", "email_verified", "gender", "birthdate", "zoneinfo", "locale",
        "phone_number", "phone_number_verified", "address", "updated_at",
    ]

    /// Reads the claims of a JSON object.
    ///
    /// - Parameter claims: the members of the userinfo answer or ID-token payload.
    /// - Throws: `DecodingError` when `sub` is missing or not a string.
    public init(claims: [String: JSONValue]) throws {
        guard let sub = claims["sub"]?.stringValue else {
            throw DecodingError.keyNotFound(
                AnyCodingKey(stringValue: "sub"),
                .init(codingPath: [], debugDescription: "the claims have no string `sub`"))
        }
        func string(_ name: String) -> String? { claims[name]?.stringValue }
        func url(_ name: String) -> URL? { string(name).flatMap { URL(string: $0) } }
        self.sub = sub
        name = string("name")
        givenName = string("given_name")
        familyName = string("family_name")
        middleName = string("middle_name")
        nickname = string("nickname")
        preferredUsername = string("preferred_username")
        profile = url("profile")
        picture = url("picture")
        website = url("website")
        email = string("email")
        emailVerified = claims["email_verified"]?.boolValue
        gender = string("gender")
        birthdate = string("birthdate")
        zoneinfo = string("zoneinfo")
        locale = string("locale")
        phoneNumber = string("phone_number")
        phoneNumberVerified = claims["phone_number_verified"]?.boolValue
        address = claims["address"]?.objectValue?.compactMapValues(\.stringValue)
        updatedAt = string("updated_at").flatMap(Self.date)
        customClaims = claims.filter { !Self.standardClaims.contains($0.key) }
    }

    public init(from decoder: any Decoder) throws {
        try self.init(claims: try [String: JSONValue](from: decoder))
    }

    /// An ISO 8601 date, with or without fractional seconds.
    static func date(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
