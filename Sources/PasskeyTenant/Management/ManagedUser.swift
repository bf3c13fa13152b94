import FoundationEssentials

/// A user as the Management API returns it (auth0-passkey-api.md §15.2 **[obs]**).
///
/// ```
/// { "user_id": "auth0|…", "email"?, "email_verified"?, "phone_number"?, "username"?, "name",
///   "nickname", "given_name"?, "family_name"?, "picture"?, "user_metadata"?,
///   "identities": [{ "connection", "user_id", "provider": "auth0" | "oidc", "isSocial": false }],
///   "created_at": ISO 8601 with milliseconds, "updated_at": the same }
/// ```
///
/// As Auth0 fills them in: `name` is the identifier when none was given, `nickname` the
/// username or the email's local part. `identities` is the database connection's identity, or
/// an upstream connection's user's `oidc` one (``UserIdentity``).
struct ManagedUser: Sendable, Hashable, Codable {
    var userID: String
    var email: String?
    var emailVerified: Bool?
    var phoneNumber: String?
    var username: String?
    var name: String
    var nickname: String
    var givenName: String?
    var familyName: String?
    var picture: String?
    var userMetadata: [String: String]?
    var identities: [UserIdentity]
    var createdAt: String
    var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case email, username, name, nickname, picture, identities
        case userID = "user_id"
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
        case givenName = "given_name"
        case familyName = "family_name"
        case userMetadata = "user_metadata"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// The object describing `user` of `connection`.
    init(_ user: TenantUser, connection: String) {
        let profile = user.profile
        let created = user.createdAt.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        userID = user.id
        email = profile.email
        emailVerified = profile.email == nil ? nil : (user.emailVerified ?? false)
        phoneNumber = profile.phoneNumber
        username = profile.username
        name = profile.name ?? user.identifier
        nickname = profile.nickname ?? profile.username ?? profile.email.map { String($0.prefix { $0 != "@" }) } ?? name
        givenName = profile.givenName
        familyName = profile.familyName
        picture = profile.picture
        userMetadata = user.metadata.isEmpty ? nil : user.metadata
        identities = user.identities(databaseConnection: connection)
        createdAt = created
        updatedAt = created
    }
}
