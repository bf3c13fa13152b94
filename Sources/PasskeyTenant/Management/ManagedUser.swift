import FoundationEssentials
import WebAuthn

/// A user as the Management API returns it (auth0-passkey-api.md §15.2 **[obs]**).
///
/// ```
/// { "user_id": "auth0|…", "email"?, "email_verified"?, "phone_number"?, "username"?, "name",
///   "nickname", "given_name"?, "family_name"?, "picture"?, "user_metadata"?, "app_metadata"?,
///   "identities": [{ "connection", "user_id", "provider": "auth0" | "oidc", "isSocial": false,
///                    "profileData"?: { … } }],
///   "created_at": ISO 8601 with milliseconds, "updated_at": the same }
/// ```
///
/// As Auth0 fills them in: `name` is the identifier when none was given, `nickname` the
/// username or the email's local part. `identities` is the database connection's identity, or
/// an upstream connection's user's `oidc` one (``UserIdentity``), then the identity of each user
/// linked to this one, with its `profileData`, in the order they were linked. `updated_at` is
/// when the Management API last changed the user, else `created_at`.
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
    var userMetadata: [String: JSONValue]?
    var appMetadata: [String: JSONValue]?
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
        case appMetadata = "app_metadata"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// The object describing `user` of `connection`, with the users `linked` to it.
    init(_ user: TenantUser, connection: String, linked: [TenantUser] = []) {
        let profile = user.profile
        let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let created = user.createdAt.formatted(format)
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
        appMetadata = user.appMetadata?.isEmpty == false ? user.appMetadata : nil
        identities =
            user.identities(databaseConnection: connection)
            + linked.map { $0.linkedIdentity(databaseConnection: connection) }
        createdAt = created
        updatedAt = user.updatedAt?.formatted(format) ?? created
    }
}
