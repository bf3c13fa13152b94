public import FoundationEssentials
public import WebAuthn

/// A user of the tenant: of its database connection (identifiers, profile, WebAuthn user handle and
/// passkeys), or of an upstream OpenID Connect connection (``identity``, the profile its ID token
/// gave, no passkey at the tenant).
public struct TenantUser: Sendable, Hashable, Codable {
    /// `auth0|<24 hex digits>` (`oidc|NAME|SUB` for an upstream connection's user), the `sub` of
    /// the user's tokens.
    public var id: String
    /// The WebAuthn user handle (`user.id` of the creation options), 32 random bytes.
    public var userHandle: [UInt8]
    /// The profile given at signup.
    public var profile: UserProfile
    /// `user_metadata`: strings given at signup, any JSON the Management API's `PATCH` sets since
    /// (merged one level deep, ``ManagedUserUpdate``).
    public var metadata: [String: JSONValue]
    /// When the user signed up.
    public var createdAt: Date
    /// Whether the email address is verified: true only when the Management API said so
    /// (`email_verified`, auth0-passkey-api.md §15.2); nil otherwise.
    public var emailVerified: Bool? = nil
    /// The upstream identity of a user who logs in through an upstream OpenID Connect connection;
    /// nil for a user of the database connection. Such a user's identifiers are not the database
    /// connection's: their email is in ``profile`` only, so the same email signing up natively is
    /// another user (Auth0's default: no linking).
    public var identity: UserIdentity? = nil
    /// `app_metadata`, as the machine-to-machine client's `PATCH /api/v2/users/{id}` sets it; nil
    /// when never set. Never in a token: Auth0 releases it only through an Action.
    public var appMetadata: [String: JSONValue]? = nil
    /// When the Management API last changed the user; nil when never (then ``createdAt``).
    public var updatedAt: Date? = nil
    /// The primary user this user is linked to as a secondary identity (Auth0 account linking):
    /// such a user is no user of its own any more; logging in as it yields the primary's tokens
    /// and session. Nil for a user of its own.
    public var primaryUserID: String? = nil

    /// The identity's ID: the upstream's `sub`, else the ID without the `auth0|` prefix (My
    /// Account's `identity_user_id`).
    public var identityUserID: String {
        if let identity { return identity.userID }
        return id.hasPrefix("auth0|") ? String(id.dropFirst("auth0|".count)) : id
    }

    /// The user's identities (Management API `identities`): the upstream one, else the database
    /// connection's (`auth0`, `connection`, ``identityUserID``).
    ///
    /// - Parameter connection: the tenant's database connection.
    /// - Returns: one identity.
    public func identities(databaseConnection connection: String) -> [UserIdentity] {
        [identity ?? UserIdentity(provider: "auth0", connection: connection, userID: identityUserID)]
    }

    /// The user-facing identifier, highest precedence first: email, phone number, username
    /// (Auth0 docs: the creation options' `user.name`).
    public var identifier: String {
        profile.email ?? profile.phoneNumber ?? profile.username ?? id
    }

    /// A new user with a fresh ID and user handle.
    static func new(profile: UserProfile, metadata: [String: String], at time: Date) -> TenantUser {
        TenantUser(
            id: "auth0|" + Hex.encode(SecureRandom.bytes(12)), userHandle: SecureRandom.bytes(32),
            profile: profile, metadata: metadata.mapValues(JSONValue.string), createdAt: time)
    }
}
