import FoundationEssentials
import HTTPTypes
import Hummingbird
import WebAuthn

/// The Management API's routes of one user that the user's own token may call as well as the
/// machine-to-machine client's (Auth0, "Get Management API Access Tokens for
/// Single-Page Applications"): a user who logged in asking for the management audience and the
/// current-user scopes reads and changes their own user and links their own accounts.
extension ManagementAPI {
    /// The user routes (see ``addManagementRoutes(to:)``'s table): each takes the
    /// machine-to-machine client's token with the `read:users` / `update:users` scope, or the
    /// user's own token (Bearer or DPoP-bound, RFC 9449 §7) with a current-user scope.
    func addUserRoutes(to group: RouterGroup<TenantRequestContext>, secure: Bool) {
        group.get("users/:id") { request, context in
            let id = try Self.pathID(context, "id")
            try await self.userClaims(
                self.services.accessToken(request, secure: secure), for: id, scope: "read:users",
                userScopes: ["read:current_user"])
            let shape = try UserListRequest(FormParameters(request.uri.query))
            return TenantResponseEncoder.json(try shape.shaped(try await self.managedUser(id: id)))
        }
        group.patch("users/:id") { request, context in
            let id = try Self.pathID(context, "id")
            let (_, isUser) = try await self.userClaims(
                self.services.accessToken(request, secure: secure), for: id, scope: "update:users",
                userScopes: ["update:current_user_metadata", "create:current_user_metadata"])
            let members = try await request.decode(as: [String: JSONValue].self, context: context)
            let update = try ManagedUserUpdate(members, connection: self.configuration.connection)
            if isUser, !update.isUserMetadataOnly {
                throw Self.insufficientScope(["update:users"])
            }
            return TenantResponseEncoder.json(try await self.updateManagedUser(id: id, update))
        }
        group.post("users/:id/identities") { request, context in
            let id = try Self.pathID(context, "id")
            let (claims, isUser) = try await self.userClaims(
                self.services.accessToken(request, secure: secure), for: id, scope: "update:users",
                userScopes: ["update:current_user_identities"])
            let body = try await request.decode(as: IdentityLinkRequest.self, context: context)
            let identities = try await self.link(id, body, asUser: isUser, client: claims.azp)
            return TenantResponseEncoder.json(identities, status: .created)
        }
        group.delete("users/:id/identities/:provider/:identity") { request, context in
            let id = try Self.pathID(context, "id")
            try await self.userClaims(
                self.services.accessToken(request, secure: secure), for: id, scope: "update:users",
                userScopes: ["update:current_user_identities"])
            return TenantResponseEncoder.json(
                try await self.unlink(
                    id, provider: Self.pathID(context, "provider"), identityUserID: Self.pathID(context, "identity")))
        }
    }

    /// The claims of a token that may act on user `id`: the machine-to-machine client's granting
    /// `scope`, or a token of the user `id` names (its `sub`) for the management audience granting
    /// one of `userScopes`.
    ///
    /// - Returns: the claims, and whether they are the user's own.
    /// - Throws: `invalid_token` (401) as ``managementClaims(_:scope:)`` says, and for another
    ///   client's client-credentials token; `insufficient_scope` (403), in Auth0's words, when
    ///   neither holds: a user's token for another user names only `scope` **[local]**.
    @discardableResult
    func userClaims(_ token: Secret?, for id: String, scope: String, userScopes: [String]) async throws(TenantError)
        -> (claims: AccessTokenClaims, isUser: Bool)
    {
        let audience = configuration.managementAudience
        let claims = try await services.authorize(token, audiences: { $0 == audience }, scope: nil)
        if claims.gty == TenantServices.clientCredentialsGty {
            return (try await managementClaims(token, scope: scope), false)
        }
        guard claims.sub == id else { throw Self.insufficientScope([scope]) }
        guard !claims.scopes.isDisjoint(with: userScopes) else { throw Self.insufficientScope([scope] + userScopes) }
        return (claims, true)
    }

    /// Auth0's 403 for a token without the scope a call needs.
    static func insufficientScope(_ scopes: [String]) -> TenantError {
        TenantError(
            .insufficientScope, status: 403, "Insufficient scope, expected any of: \(scopes.joined(separator: ","))")
    }

    /// `PATCH /api/v2/users/{id}`: applies `update` to the user and answers it, `updated_at` now.
    ///
    /// - Throws: `inexistent_user` (404); `invalid_body` (400) for a value out of form;
    ///   `auth0_idp_error` (409) for an identifier another user has.
    func updateManagedUser(id: String, _ update: ManagedUserUpdate) async throws(TenantError) -> ManagedUser {
        let now = clock.now()
        guard
            let user = try await store.updateUser(
                id: id,
                { user throws(TenantError) in
                    try update.apply(to: &user)
                    user.updatedAt = now
                })
        else {
            throw TenantServices.inexistentUser
        }
        return try await managedUser(user)
    }
}
