import FoundationEssentials
import WebAuthn

/// Account linking through the Management API (Auth0 "User Account Linking"): the
/// secondary user becomes an identity of the primary, listed with its `profileData`, and every
/// login as it yields the primary's tokens and session (``TenantServices/primary(of:)``);
/// unlinking makes it a user of its own again.
extension ManagementAPI {
    /// `POST /api/v2/users/{id}/identities`: links the account `body` names to the user `id`.
    ///
    /// With `link_with`, the secondary is the `sub` of an ID token this tenant signed, unexpired,
    /// for `client` when a user's own token calls (for any of the tenant's applications when the
    /// machine-to-machine client does **[local]**).
    ///
    /// - Parameters:
    ///   - id: the primary user.
    ///   - body: the secondary account.
    ///   - asUser: whether the caller is the primary user's own token.
    ///   - client: the calling token's `azp`.
    /// - Returns: the primary's identities, its own first.
    /// - Throws: `inexistent_user` (404) for a primary or secondary that is no user of its own;
    ///   `invalid_body` (400) for a body of neither form, an ID token that does not hold, or the
    ///   primary itself; `insufficient_scope` (403) for the second form with a user's token;
    ///   `conflict` (409) for a secondary linked already.
    func link(_ id: String, _ body: IdentityLinkRequest, asUser: Bool, client: String) async throws(TenantError)
        -> [UserIdentity]
    {
        let primary = try await existingUser(id)
        let secondaryID: String
        if let token = body.linkWith {
            guard body.provider == nil, body.userID == nil, body.connectionID == nil else {
                throw Self.invalidLink("link_with excludes provider, user_id and connection_id")
            }
            secondaryID = try await linkedSubject(token, client: asUser ? client : nil)
        } else {
            guard !asUser else { throw Self.insufficientScope(["update:users"]) }
            guard let provider = body.provider, let userID = body.userID, !provider.isEmpty, !userID.isEmpty else {
                throw Self.invalidLink("link_with, or provider and user_id, are required")
            }
            secondaryID = try await identityOwner(provider: provider, userID: userID, connection: body.connectionID)
        }
        guard secondaryID != primary.id else {
            throw Self.invalidLink("Main identity and the new one are the same")
        }
        try await store.linkUser(secondaryID, to: primary.id, at: clock.now())
        return try await managedUser(primary).identities
    }

    /// `DELETE /api/v2/users/{id}/identities/{provider}/{user id}`: unlinks the identity, whose
    /// user is a user of its own again.
    ///
    /// - Returns: the primary's identities left.
    /// - Throws: `inexistent_user` (404); `invalid_body` (400) for the primary's own identity;
    ///   `not_found` (404) **[local]** for an identity not linked to the user.
    func unlink(_ id: String, provider: String, identityUserID: String) async throws(TenantError) -> [UserIdentity] {
        let primary = try await existingUser(id)
        let own = primary.identities(databaseConnection: configuration.connection)[0]
        guard own.provider != provider || own.userID != identityUserID else {
            throw Self.invalidLink("Main identity cannot be removed")
        }
        let secondary = try await store.linkedUsers(primaryID: primary.id).first {
            let identity = $0.identities(databaseConnection: configuration.connection)[0]
            return identity.provider == provider && identity.userID == identityUserID
        }
        guard let secondary, try await store.unlinkUser(secondary.id, from: primary.id) else {
            throw TenantError(.notFound, status: 404, "The identity is not linked to this user.")
        }
        return try await managedUser(primary).identities
    }

    /// The `sub` of an ID token this tenant signed, unexpired, for `client` (any of the tenant's
    /// applications when nil).
    ///
    /// - Throws: `invalid_body` (400) naming what does not hold.
    private func linkedSubject(_ token: String, client: String?) async throws(TenantError) -> String {
        guard let claims = await services.signer.verify(token, as: IDTokenClaims.self),
            claims.iss == configuration.issuer
        else {
            throw Self.invalidLink("link_with is not an ID token signed by this tenant")
        }
        guard Double(claims.exp) > clock.now().timeIntervalSince1970 else {
            throw Self.invalidLink("link_with: the ID token expired")
        }
        let audience = claims.aud.values
        let forClient = client.map { audience.contains($0) } ?? audience.contains { services.application($0) != nil }
        guard forClient, audience.count == 1 else {
            throw Self.invalidLink("link_with: the ID token was issued to another application")
        }
        return claims.sub
    }

    /// The user whose own identity is `provider` / `userID` (the ID after `provider|`, or the
    /// whole ID), of connection `connection` when given (an `oidc` identity needs it).
    ///
    /// - Throws: `inexistent_user` (404) when there is none; `invalid_body` (400) for an `oidc`
    ///   identity without a connection.
    private func identityOwner(provider: String, userID: String, connection: String?) async throws(TenantError)
        -> String
    {
        let id: String
        if userID.hasPrefix(provider + "|") {
            id = userID
        } else if provider == "oidc" {
            guard let connection else { throw Self.invalidLink("connection_id is required for an oidc identity") }
            id = UserIdentity.federatedUserID(connection: connection, subject: userID)
        } else {
            id = provider + "|" + userID
        }
        guard let user = try await store.user(id: id) else { throw TenantServices.inexistentUser }
        let identity = user.identities(databaseConnection: configuration.connection)[0]
        guard identity.provider == provider, connection.map({ $0 == identity.connection }) ?? true else {
            throw TenantServices.inexistentUser
        }
        return user.id
    }

    private static func invalidLink(_ detail: String) -> TenantError {
        .invalidRequest("\(detail).")
    }
}
