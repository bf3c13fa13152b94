import FoundationEssentials
import WebAuthn

/// Account linking as every login sees it (Auth0 "User Account Linking"): a linked
/// (secondary) user logs in as its primary, whichever way it logs in, because the two places
/// that make a login's result, ``issueTokens(for:scopes:audience:organization:authTime:nonce:sessionID:identifiers:refresh:boundTo:client:)``
/// and ``WebAuthAPI/openSession(userID:authTime:request:refusal:secure:)``, resolve it here.
extension TenantServices {
    /// The Management API's scopes a user's own token may carry, for their own user only (Auth0,
    /// "Get Management API Access Tokens for Single-Page Applications"): the user, its
    /// `user_metadata` and its identities.
    static let currentUserScopes: Set<String> = [
        "read:current_user", "update:current_user_metadata", "create:current_user_metadata",
        "delete:current_user_metadata", "update:current_user_identities",
    ]

    /// The user a login as `user` logs in: its primary when it is linked, else itself.
    ///
    /// - Throws: `invalid_grant` when the primary is gone since (a race with its deletion, which
    ///   deletes the secondary too).
    func primary(of user: TenantUser) async throws(TenantError) -> TenantUser {
        guard let primaryID = user.primaryUserID else { return user }
        guard let primary = try await store.user(id: primaryID), primary.primaryUserID == nil else {
            throw .invalidGrant("The user no longer exists.")
        }
        return primary
    }

    /// The ID of the user a login as `userID` logs in: its primary's when it is linked.
    func primaryUserID(of userID: String) async throws(TenantError) -> String {
        guard let user = try await store.user(id: userID) else { return userID }
        return try await primary(of: user).id
    }

    /// The Management API's 404 for an ID that names no user of its own.
    static let inexistentUser = TenantError(.inexistentUser, status: 404, "The user does not exist.")
    /// **[local]** Linking a user that is linked already (to any primary).
    static let alreadyLinked = TenantError(.conflict, status: 409, "The identity is already linked to a user.")
    /// **[local]** Linking a user that holds linked identities itself.
    static let secondaryHasIdentities = TenantError.invalidRequest(
        "The user to link has linked identities of its own; unlink them first.")
}
