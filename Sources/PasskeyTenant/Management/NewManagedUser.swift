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
struct NewManagedUser: Sendable, Hashable, Decodable {
    var connection: String
    /// The identifiers and profile claims, the email lower-cased as Auth0 stores a database
    /// connection's emails.
    var profile: UserProfile
    var emailVerified: Bool?
    /// Whether to send a verification email; accepted and ignored, the local tenant sends no mail.
    var verifyEmail: Bool?
    var userMetadata: [String: String]?

    enum CodingKeys: String, CodingKey {
        case connection
        case emailVerified = "email_verified"
        case verifyEmail = "verify_email"
        case userMetadata = "user_metadata"
    }

    /// Decodes a body, refusing members the tenant does not define.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the first unknown member.
    init(from decoder: any Decoder) throws {
        try AnyKey.refuseUnknownMembers(of: decoder, "a user property") {
            CodingKeys(stringValue: $0) != nil || UserProfile.CodingKeys(stringValue: $0) != nil
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        connection = try container.decode(String.self, forKey: .connection)
        profile = try UserProfile(container: decoder.container(keyedBy: UserProfile.CodingKeys.self))
        profile.email = profile.email?.lowercased()
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
        verifyEmail = try container.decodeIfPresent(Bool.self, forKey: .verifyEmail)
        userMetadata = try container.decodeIfPresent([String: String].self, forKey: .userMetadata)
    }
}

extension AnyKey {
    /// Refuses an object with a member that is not `known`: the Management API's schemas have
    /// `additionalProperties: false`.
    ///
    /// - Parameters:
    ///   - decoder: the object's decoder.
    ///   - what: what a member is, for the message.
    ///   - known: whether a member name is allowed.
    /// - Throws: `DecodingError.dataCorrupted` naming the first unknown member.
    static func refuseUnknownMembers(of decoder: any Decoder, _ what: String, known: (String) -> Bool) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = all.allKeys.first(where: { !known($0.stringValue) }) {
            throw DecodingError.dataCorrupted(
                .init(codingPath: all.codingPath + [unknown], debugDescription: "not \(what)"))
        }
    }
}
