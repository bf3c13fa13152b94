import FoundationEssentials

/// The standard claims about a user that ID tokens and `GET /userinfo` carry (OpenID Connect
/// Core 1.0 §5.1), released by scope (§5.4): `profile` gives the names, `nickname`, `picture`,
/// `preferred_username` and `updated_at`; `email` gives `email` and `email_verified`; `phone`
/// gives `phone_number` and `phone_number_verified`.
public struct UserClaims: Sendable, Hashable, Codable {
    public var sub: String?
    public var name: String?
    public var givenName: String?
    public var familyName: String?
    public var nickname: String?
    public var preferredUsername: String?
    public var picture: String?
    public var updatedAt: String?
    public var email: String?
    public var emailVerified: Bool?
    public var phoneNumber: String?
    public var phoneNumberVerified: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case sub, name, nickname, picture, email
        case givenName = "given_name"
        case familyName = "family_name"
        case preferredUsername = "preferred_username"
        case updatedAt = "updated_at"
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
        case phoneNumberVerified = "phone_number_verified"
    }

    /// The claims `scopes` release about `user`; `sub` only when `includeSubject` (userinfo).
    init(user: TenantUser, scopes: Set<String>, includeSubject: Bool) {
        let profile = user.profile
        sub = includeSubject ? user.id : nil
        if scopes.contains("profile") {
            name = profile.name ?? user.identifier
            givenName = profile.givenName
            familyName = profile.familyName
            nickname = profile.nickname ?? profile.username ?? profile.email.map { String($0.prefix { $0 != "@" }) }
            preferredUsername = profile.username
            picture = profile.picture
            updatedAt = user.createdAt.formatted(.iso8601)
        }
        if scopes.contains("email"), let email = profile.email {
            self.email = email
            emailVerified = user.emailVerified ?? false
        }
        if scopes.contains("phone"), let phone = profile.phoneNumber {
            phoneNumber = phone
            phoneNumberVerified = false
        }
    }
}
