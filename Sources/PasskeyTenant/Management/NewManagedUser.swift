/// `POST /api/v2/users`'s body (auth0-passkey-api.md §15.2).
///
/// ```
/// { "connection": string, "email"?: string, "email_verified"?: boolean, "verify_email"?: boolean,
///   "phone_number"?: string, "username"?: string, "name"?: string, "given_name"?: string,
///   "family_name"?: string, "nickname"?: string, "picture"?: string,
///   "user_metadata"?: { string: string } }
/// ```
///
/// Only `connection` is required; which identifiers must be present is the connection's rule, as
/// at signup. **[local]** No `password`: the connection takes passkeys only, so a `password`, like
/// any member not listed, fails to decode and the caller answers 400 `invalid_body`.
struct NewManagedUser: Sendable, Hashable, Codable {
    var connection: String
    var email: String?
    var emailVerified: Bool?
    /// Whether to send a verification email; accepted and ignored, the local tenant sends no mail.
    var verifyEmail: Bool?
    var phoneNumber: String?
    var username: String?
    var name: String?
    var givenName: String?
    var familyName: String?
    var nickname: String?
    var picture: String?
    var userMetadata: [String: String]?

    enum CodingKeys: String, CodingKey {
        case connection, email, username, name, nickname, picture
        case emailVerified = "email_verified"
        case verifyEmail = "verify_email"
        case phoneNumber = "phone_number"
        case givenName = "given_name"
        case familyName = "family_name"
        case userMetadata = "user_metadata"
    }

    /// The signup profile these members make, the email lower-cased as Auth0 stores a database
    /// connection's emails.
    var profile: UserProfile {
        UserProfile(
            email: email?.lowercased(), phoneNumber: phoneNumber, username: username, name: name,
            givenName: givenName, familyName: familyName, nickname: nickname, picture: picture)
    }

    /// Decodes a body, refusing members the tenant does not define.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the first unknown member.
    init(from decoder: any Decoder) throws {
        try AnyKey.refuseUnknownMembers(of: decoder, CodingKeys.self, "a user property")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        connection = try container.decode(String.self, forKey: .connection)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
        verifyEmail = try container.decodeIfPresent(Bool.self, forKey: .verifyEmail)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
        username = try container.decodeIfPresent(String.self, forKey: .username)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        givenName = try container.decodeIfPresent(String.self, forKey: .givenName)
        familyName = try container.decodeIfPresent(String.self, forKey: .familyName)
        nickname = try container.decodeIfPresent(String.self, forKey: .nickname)
        picture = try container.decodeIfPresent(String.self, forKey: .picture)
        userMetadata = try container.decodeIfPresent([String: String].self, forKey: .userMetadata)
    }
}

extension AnyKey {
    /// Refuses an object with a member that `keys` does not name: the Management API's schemas
    /// have `additionalProperties: false`.
    ///
    /// - Parameters:
    ///   - decoder: the object's decoder.
    ///   - keys: the members allowed.
    ///   - what: what a member is, for the message.
    /// - Throws: `DecodingError.dataCorrupted` naming the first unknown member.
    static func refuseUnknownMembers<Keys: CodingKey>(of decoder: any Decoder, _ keys: Keys.Type, _ what: String)
        throws
    {
        let all = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = all.allKeys.first(where: { Keys(stringValue: $0.stringValue) == nil }) {
            throw DecodingError.dataCorrupted(
                .init(codingPath: all.codingPath + [unknown], debugDescription: "not \(what)"))
        }
    }
}
