/// One identity of a user: the connection they log in through and their ID there, as Auth0's
/// Management API lists a user's `identities` (auth0-passkey-api.md §15.2):
///
/// ```json
/// {"provider": "oidc", "connection": "passkey-idp", "user_id": "auth0|5f7c…", "isSocial": false}
/// ```
///
/// A user of the tenant's database connection has the identity `auth0` / the connection's name /
/// their ID without the `auth0|` prefix; a user who logs in through an upstream OpenID Connect
/// connection (``UpstreamConnection``) has `oidc` / the connection's name / the upstream's `sub`,
/// and the `user_id` `oidc|NAME|SUB`. Accounts are not linked by themselves: the same email
/// through two connections is two users, as on Auth0 by default, until the Management API links
/// them, and the secondary's identity, with its `profileData`, joins the primary's.
public struct UserIdentity: Sendable, Hashable, Codable {
    /// `auth0` for the database connection, `oidc` for an OpenID Connect connection.
    public var provider: String
    /// The connection's name.
    public var connection: String
    /// The user's ID at the connection: the upstream's `sub`.
    public var userID: String
    /// Whether the connection is a social one (never, for the tenant's connections).
    public var isSocial: Bool
    /// A linked (secondary) identity's profile, as Auth0 lists it under the primary; nil for a
    /// user's own identity.
    public var profileData: IdentityProfileData? = nil

    /// Creates an identity.
    ///
    /// - Parameters:
    ///   - provider: `auth0` or `oidc`.
    ///   - connection: the connection's name.
    ///   - userID: the user's ID at the connection.
    ///   - isSocial: whether the connection is social.
    public init(provider: String, connection: String, userID: String, isSocial: Bool = false) {
        self.provider = provider
        self.connection = connection
        self.userID = userID
        self.isSocial = isSocial
    }

    enum CodingKeys: String, CodingKey {
        case provider, connection, isSocial, profileData
        case userID = "user_id"
    }

    /// The `user_id` of the user an upstream connection's `sub` logs in: `oidc|NAME|SUB`.
    static func federatedUserID(connection: String, subject: String) -> String {
        "oidc|\(connection)|\(subject)"
    }
}
