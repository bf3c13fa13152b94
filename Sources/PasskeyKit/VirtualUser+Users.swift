public import Auth0Passkeys
public import WebAuthn

/// The user's own Management API calls (Auth0.swift's `users(token:)`): their
/// `user_metadata`, and linking another account to theirs, with a token for the management
/// audience exchanged from the session's refresh token, as Auth0.swift's examples get one
/// (`apiCredentials(forAudience: "https://DOMAIN/api/v2/", scope: "read:current_user …")`).
extension VirtualUser {
    /// The current-user scopes these calls ask for (Auth0, "Get Management API Access Tokens for
    /// Single-Page Applications").
    public static let currentUserScope =
        "read:current_user update:current_user_metadata update:current_user_identities"

    /// The user's `user_metadata`: `GET /api/v2/users/{sub}`.
    ///
    /// - Returns: the metadata; empty when there is none.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/management(_:)``,
    ///   ``PasskeyFlowError/session(_:)`` or ``PasskeyFlowError/user(_:)``.
    public func userMetadata() async throws(PasskeyFlowError) -> [String: JSONValue] {
        let (users, id) = try await ownUsers()
        return try await users.get(id, fields: ["user_id", "user_metadata"]).start(as: PasskeyFlowError.management)
            .userMetadata ?? [:]
    }

    /// Merges `metadata` into the user's `user_metadata` (a member set to `.null` is removed):
    /// `PATCH /api/v2/users/{sub}`.
    ///
    /// - Parameter metadata: the members to set.
    /// - Returns: the metadata after the change.
    /// - Throws: as ``userMetadata()``.
    public func updateUserMetadata(_ metadata: [String: JSONValue]) async throws(PasskeyFlowError)
        -> [String: JSONValue]
    {
        let (users, id) = try await ownUsers()
        return try await users.patch(id, userMetadata: metadata).start(as: PasskeyFlowError.management)
            .userMetadata ?? [:]
    }

    /// Links the account an ID token names to this user: `POST /api/v2/users/{sub}/identities`
    /// with `link_with`. Logging in with that account then logs this user in.
    ///
    /// - Parameter idToken: the other account's ID token, issued to the same application (another
    ///   ``VirtualUser``'s `credentials().idToken`).
    /// - Returns: this user's identities, its own first.
    /// - Throws: as ``userMetadata()``.
    public func link(withOtherUserToken idToken: String) async throws(PasskeyFlowError) -> [ManagementUser.Identity] {
        let (users, id) = try await ownUsers()
        return try await users.link(id, withOtherUserToken: idToken).start(as: PasskeyFlowError.management)
    }

    /// Unlinks one of this user's linked identities, which is a user of its own again:
    /// `DELETE /api/v2/users/{sub}/identities/{provider}/{identity id}`.
    ///
    /// - Parameters:
    ///   - identityId: the identity's `user_id`.
    ///   - provider: its provider, `auth0` for the database connection.
    /// - Returns: the identities left.
    /// - Throws: as ``userMetadata()``.
    public func unlink(identityId: String, provider: String) async throws(PasskeyFlowError)
        -> [ManagementUser.Identity]
    {
        let (users, id) = try await ownUsers()
        return try await users.unlink(identityId: identityId, provider: provider, fromUserId: id).start(
            as: PasskeyFlowError.management)
    }

    /// The user calls with a current-user token, and the user's ID (the session's `sub`).
    func ownUsers() async throws(PasskeyFlowError) -> (users: Users, id: String) {
        let audience = try await tenant.managementAudience(nil)
        let token: APICredentials
        let id: String
        do {
            token = try await apiCredentials(audience: audience, scope: Self.currentUserScope)
            id = try await storedUser().sub
        } catch {
            throw .session(error)
        }
        do {
            return (
                try ManagementAPI(
                    token: token.accessToken, baseURL: tenant.baseURL, tokenType: token.tokenType,
                    transport: tenant.transport, logger: tenant.logger
                ).users, id
            )
        } catch {
            throw .management(error)
        }
    }
}
