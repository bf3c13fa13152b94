import FoundationEssentials
import Hummingbird

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
    var email: String?
    var password: Secret?
    var connection: String?
    var username: String?
    var phoneNumber: String?
    var givenName: String?
    var familyName: String?
    var name: String?
    var nickname: String?
    var picture: String?
    var userMetadata: [String: String]?
    var captcha: Secret?

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case email, password, connection, username
        case phoneNumber = "phone_number"
        case givenName = "given_name"
        case familyName = "family_name"
        case name, nickname, picture
        case userMetadata = "user_metadata"
        case captcha
    }

    /// The profile the user signs up with.
    var profile: UserProfile {
        UserProfile(
            email: email, phoneNumber: phoneNumber, username: username, name: name, givenName: givenName,
            familyName: familyName, nickname: nickname, picture: picture)
    }
}

/// `POST /dbconnections/signup`'s answer (200): the new user, as Auth0 answers it, `_id` the
/// user ID without `auth0|`.
///
/// ```json
/// {"_id": "6543…", "email": "ada@example.com", "email_verified": false, "username": "ada",
///  "given_name": "Ada", "user_metadata": {"plan": "pro"}}
/// ```
struct DatabaseSignupResponse: Sendable, Hashable, Codable {
    var id: String
    var email: String?
    var emailVerified: Bool
    var username: String?
    var phoneNumber: String?
    var givenName: String?
    var familyName: String?
    var name: String?
    var nickname: String?
    var picture: String?
    var userMetadata: [String: String]?

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case email
        case emailVerified = "email_verified"
        case username
        case phoneNumber = "phone_number"
        case givenName = "given_name"
        case familyName = "family_name"
        case name, nickname, picture
        case userMetadata = "user_metadata"
    }

    /// The answer for a stored user.
    init(_ user: TenantUser) {
        id = user.identityUserID
        email = user.profile.email
        emailVerified = user.emailVerified ?? false
        username = user.profile.username
        phoneNumber = user.profile.phoneNumber
        givenName = user.profile.givenName
        familyName = user.profile.familyName
        name = user.profile.name
        nickname = user.profile.nickname
        picture = user.profile.picture
        userMetadata = user.metadata.isEmpty ? nil : user.metadata
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
