/// The profile of a linked (secondary) identity, as Auth0 shows it under the primary user's
/// `identities` (Management API, "Link a User Account"):
///
/// ```json
/// {"email": "bob@example.com", "email_verified": false, "name": "Bob", "username": "bob",
///  "given_name"?, "family_name"?, "nickname"?, "picture"?, "phone_number"?}
/// ```
///
/// The members the secondary had; `email_verified` with an email only.
public struct IdentityProfileData: Sendable, Hashable, Codable {
    public var email: String?
    public var emailVerified: Bool?
    public var name: String?
    public var username: String?
    public var givenName: String?
    public var familyName: String?
    public var nickname: String?
    public var picture: String?
    public var phoneNumber: String?

    enum CodingKeys: String, CodingKey {
        case email, name, username, nickname, picture
        case emailVerified = "email_verified"
        case givenName = "given_name"
        case familyName = "family_name"
        case phoneNumber = "phone_number"
    }

    /// The profile data of `user`.
    init(_ user: TenantUser) {
        let profile = user.profile
        email = profile.email
        emailVerified = profile.email == nil ? nil : (user.emailVerified ?? false)
        name = profile.name
        username = profile.username
        givenName = profile.givenName
        familyName = profile.familyName
        nickname = profile.nickname
        picture = profile.picture
        phoneNumber = profile.phoneNumber
    }
}

extension TenantUser {
    /// This user's identity as a secondary of another: its own identity with its profile data.
    ///
    /// - Parameter connection: the tenant's database connection.
    func linkedIdentity(databaseConnection connection: String) -> UserIdentity {
        var identity = identities(databaseConnection: connection)[0]
        identity.profileData = IdentityProfileData(self)
        return identity
    }
}
