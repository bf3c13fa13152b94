import FoundationEssentials
import Hummingbird
import WebAuthn

/// `POST /dbconnections/signup`'s body (Auth0 Authentication API, "Signup"; auth0-python's
/// `Database.signup`, Auth0.swift's `signup(email:username:password:connection:userMetadata:rootAttributes:)`):
///
/// ```json
/// {"client_id": "…", "email": "ada@example.com", "password": "…", "connection": "Username-Password-Authentication",
///  "username": "ada", "phone_number": "+15555550100", "given_name": "Ada", "family_name": "Lovelace",
///  "name": "Ada Lovelace", "nickname": "ada", "picture": "https://…", "user_metadata": {"plan": "pro"},
///  "captcha": "…"}
/// ```
///
/// `username` when the connection takes one; the root attributes Auth0 allows (`given_name`,
/// `family_name`, `name`, `nickname`, `picture`); `user_metadata` of string values. `captcha` is
/// **[local]**: bot detection's answer. Other members are ignored.
struct DatabaseSignupRequest: Sendable, Decodable {
    var clientID: String?
    var password: Secret?
    var connection: String?
    var userMetadata: [String: String]?
    var captcha: Secret?
    /// The identifiers and root attributes, read as ``UserProfile`` reads them.
    var profile: UserProfile

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case password, connection
        case userMetadata = "user_metadata"
        case captcha
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientID = try container.decodeIfPresent(String.self, forKey: .clientID)
        password = try container.decodeIfPresent(Secret.self, forKey: .password)
        connection = try container.decodeIfPresent(String.self, forKey: .connection)
        userMetadata = try container.decodeIfPresent([String: String].self, forKey: .userMetadata)
        captcha = try container.decodeIfPresent(Secret.self, forKey: .captcha)
        profile = try UserProfile(container: decoder.container(keyedBy: UserProfile.CodingKeys.self))
    }
}

/// `POST /dbconnections/signup`'s answer (200): the new user, as Auth0 answers it, `_id` the
/// user ID without `auth0|`, then the profile's members as the request gave them.
///
/// ```json
/// {"_id": "6543…", "email": "ada@example.com", "email_verified": false, "username": "ada",
///  "given_name": "Ada", "user_metadata": {"plan": "pro"}}
/// ```
struct DatabaseSignupResponse: Sendable, Hashable, Encodable {
    var id: String
    var emailVerified: Bool
    var profile: UserProfile
    var userMetadata: [String: JSONValue]?

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case emailVerified = "email_verified"
        case userMetadata = "user_metadata"
    }

    /// The answer for a stored user.
    init(_ user: TenantUser) {
        id = user.identityUserID
        emailVerified = user.emailVerified ?? false
        profile = user.profile
        userMetadata = user.metadata.isEmpty ? nil : user.metadata
    }

    /// The profile's members and this answer's in one object.
    func encode(to encoder: any Encoder) throws {
        try profile.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(emailVerified, forKey: .emailVerified)
        try container.encodeIfPresent(userMetadata, forKey: .userMetadata)
    }
}

/// `POST /dbconnections/change_password`'s body: `{"client_id", "email", "connection"}`.
struct ChangePasswordRequest: Sendable, Decodable {
    var clientID: String?
    var email: String?
    var connection: String?

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case email, connection
    }
}

extension DatabaseSignupResponse: ResponseEncodable {}
