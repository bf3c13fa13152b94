import WebAuthn

/// The user calls of the Management API (spec §15.2), reached through ``ManagementAPI/users``.
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
        api.request(
            .get, "/users/\(ManagementAPI.segment(id))", retryable: true,
            ResponseHandling.json(ManagementUser.self, ManagementAPIError.self))
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
