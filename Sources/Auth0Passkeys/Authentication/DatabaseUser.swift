/// The user `POST /dbconnections/signup` created: Auth0.swift's `DatabaseUser` (`email`,
/// `username`, `verified`), with the ID Auth0 answers as `_id`.
///
/// Auth0 answers `{"_id", "email", "email_verified", "username"?, …}`; `_id` is the user ID
/// without its `auth0|` provider prefix.
public struct DatabaseUser: Sendable, Hashable, Decodable {
    /// The user's email.
    public let email: String
    /// The user's username, when the connection keeps one.
    public let username: String?
    /// Whether the email is verified (`email_verified`); `false` when absent.
    public let verified: Bool
    /// The user's ID in the connection (`_id`), without the `auth0|` prefix, when answered.
    public let id: String?

    enum CodingKeys: String, CodingKey {
        case email, username
        case verified = "email_verified"
        case id = "_id"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        email = try container.decode(String.self, forKey: .email)
        username = try container.decodeIfPresent(String.self, forKey: .username)
        verified = try container.decodeIfPresent(Bool.self, forKey: .verified) ?? false
        id = try container.decodeIfPresent(String.self, forKey: .id)
    }
}
