public import WebAuthn

/// The user calls of the Management API (spec §15.2), reached through ``ManagementAPI/users``,
/// or as Auth0.swift's `Users` through ``users(token:domain:tokenType:transport:retryPolicy:clientInfo:logger:)``
/// with a user's own token: the user, its `user_metadata`, and account linking.
public struct ManagementUsers: Sendable {
    let api: ManagementAPI

    /// Creates a user: `POST /api/v2/users` (spec §15.2). Needs `create:users`.
    ///
    /// Never retried: a second attempt after a lost answer would meet the first user (409).
    ///
    /// - Parameter user: the new user's connection and identifiers.
    /// - Returns: the request; it decodes the ``ManagementUser`` (201 Created). A taken identifier
    ///   fails with 409 (``ManagementAPIError/isConflict``).
    public func create(_ user: NewManagementUser) -> Request<ManagementUser, ManagementAPIError> {
        api.request(
            .post, "/users", body: JSONObject.members(of: user), retryable: false,
            ResponseHandling.json(ManagementUser.self, ManagementAPIError.self))
    }

    /// One user: `GET /api/v2/users/{id}` (spec §15.2). Needs `read:users`.
    ///
    /// - Parameter id: the whole user ID, such as `auth0|65f0c2d1a9e4b7c3d2e1f0a9`.
    /// - Returns: the request; it decodes the user, or fails with 404 (``ManagementAPIError/isNotFound``).
    public func get(id: String) -> Request<ManagementUser, ManagementAPIError> {
        get(id)
    }

    /// One user, with only the members `fields` names (or all but those, when `include` is false),
    /// as Auth0.swift's `Users.get(_:fields:include:)`: `GET /api/v2/users/{id}?fields=&include_fields=`.
    /// Needs `read:users`, or the user's own token with `read:current_user`.
    ///
    /// ```swift
    /// let user = try await users(token: credentials.accessToken, domain: "tenant.auth0.com")
    ///     .get(userID, fields: ["user_metadata"]).start()
    /// ```
    ///
    /// - Parameters:
    ///   - id: the whole user ID: the `sub` of the user's ID token.
    ///   - fields: the members to include (or exclude); all when empty.
    ///   - include: whether `fields` are the members to include.
    /// - Returns: the request; it decodes the user, or fails with 404 (``ManagementAPIError/isNotFound``),
    ///   403 for another user's ID with a user's token (``ManagementAPIError/isInsufficientScope``).
    public func get(_ id: String, fields: [String] = [], include: Bool = true)
        -> Request<ManagementUser, ManagementAPIError>
    {
        let query: [String: JSONValue]? =
            fields.isEmpty
            ? nil : ["fields": .string(fields.joined(separator: ",")), "include_fields": .string(String(include))]
        return api.request(
            .get, "/users/\(ManagementAPI.segment(id))", body: query, retryable: true,
            ResponseHandling.json(ManagementUser.self, ManagementAPIError.self))
    }

    /// Merges `userMetadata` into the user's `user_metadata`, as Auth0.swift's
    /// `Users.patch(_:userMetadata:)`: `PATCH /api/v2/users/{id}` with `{"user_metadata": …}`. Needs
    /// `update:users`, or the user's own token with `update:current_user_metadata`.
    ///
    /// Auth0 merges one level deep: each member given replaces the stored one, a member set to
    /// `.null` is removed, and an empty object clears the metadata. Never retried.
    ///
    /// - Parameters:
    ///   - id: the whole user ID.
    ///   - userMetadata: the members to set.
    /// - Returns: the request; it decodes the updated user.
    public func patch(_ id: String, userMetadata: [String: JSONValue]) -> Request<ManagementUser, ManagementAPIError> {
        api.request(
            .patch, "/users/\(ManagementAPI.segment(id))", body: ["user_metadata": .object(userMetadata)],
            retryable: false, ResponseHandling.json(ManagementUser.self, ManagementAPIError.self))
    }

    /// Links the account an ID token names to the user `id`, as Auth0.swift's
    /// `Users.link(_:withOtherUserToken:)`: `POST /api/v2/users/{id}/identities` with
    /// `{"link_with": token}`. Needs the primary user's own token with
    /// `update:current_user_identities` (or `update:users`). The other account is then an identity
    /// of this user, and logging in with it logs this user in. Never retried.
    ///
    /// - Parameters:
    ///   - id: the primary user's whole ID.
    ///   - token: the other account's ID token, issued to the same application.
    /// - Returns: the request; it decodes the primary's identities.
    public func link(_ id: String, withOtherUserToken token: String)
        -> Request<[ManagementUser.Identity], ManagementAPIError>
    {
        link(id, ["link_with": .string(token)])
    }

    /// Links the account of `provider` / `userId` to the user `id`, as Auth0.swift's
    /// `Users.link(_:withUser:provider:connectionId:)`. Needs `update:users`. Never retried.
    ///
    /// - Parameters:
    ///   - id: the primary user's whole ID.
    ///   - userId: the other account's ID at its provider (after `auth0|`).
    ///   - provider: `auth0` for a database connection.
    ///   - connectionId: the other account's connection, when the provider has several.
    /// - Returns: the request; it decodes the primary's identities.
    public func link(_ id: String, withUser userId: String, provider: String, connectionId: String? = nil)
        -> Request<[ManagementUser.Identity], ManagementAPIError>
    {
        var body: [String: JSONValue] = ["user_id": .string(userId), "provider": .string(provider)]
        body["connection_id"] = connectionId.map(JSONValue.string)
        return link(id, body)
    }

    /// Unlinks an identity from the user `id`, as Auth0.swift's
    /// `Users.unlink(identityId:provider:fromUserId:)`: `DELETE
    /// /api/v2/users/{id}/identities/{provider}/{identity id}`. Needs `update:users`, or the user's
    /// own token with `update:current_user_identities`. The account is a user of its own again.
    ///
    /// - Parameters:
    ///   - identityId: the identity's `user_id` (after `auth0|`).
    ///   - provider: the identity's provider.
    ///   - id: the primary user's whole ID.
    /// - Returns: the request; it decodes the identities left.
    public func unlink(identityId: String, provider: String, fromUserId id: String)
        -> Request<[ManagementUser.Identity], ManagementAPIError>
    {
        api.request(
            .delete,
            "/users/\(ManagementAPI.segment(id))/identities/\(ManagementAPI.segment(provider))/"
                + ManagementAPI.segment(identityId),
            retryable: true, ResponseHandling.json([ManagementUser.Identity].self, ManagementAPIError.self))
    }

    private func link(_ id: String, _ body: [String: JSONValue]) -> Request<
        [ManagementUser.Identity], ManagementAPIError
    > {
        api.request(
            .post, "/users/\(ManagementAPI.segment(id))/identities", body: body, retryable: false,
            ResponseHandling.json([ManagementUser.Identity].self, ManagementAPIError.self))
    }

    /// The users with an email: `GET /api/v2/users-by-email?email=…` (spec §15.2). Needs
    /// `read:users`.
    ///
    /// The match is exact, and Auth0 keeps database users' emails lower-case: the email is sent
    /// as given.
    ///
    /// - Parameter email: the email.
    /// - Returns: the request; it decodes the users, maybe none.
    public func list(byEmail email: String) -> Request<[ManagementUser], ManagementAPIError> {
        api.request(
            .get, "/users-by-email", body: ["email": .string(email)], retryable: true,
            ResponseHandling.json([ManagementUser].self, ManagementAPIError.self))
    }

    /// Deletes a user and their authentication methods: `DELETE /api/v2/users/{id}`
    /// (spec §15.2). Needs `delete:users`. Deleting is idempotent, so it is retried after a
    /// retryable failure.
    ///
    /// - Parameter id: the whole user ID.
    /// - Returns: the request; any success answers (204).
    public func delete(id: String) -> Request<Void, ManagementAPIError> {
        api.request(
            .delete, "/users/\(ManagementAPI.segment(id))", retryable: true,
            ResponseHandling.none(ManagementAPIError.self))
    }
}
