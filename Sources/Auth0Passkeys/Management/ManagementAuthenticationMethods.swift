import WebAuthn

/// The authentication-method calls of the Management API (spec §15.3), reached through
/// ``ManagementAPI/authenticationMethods``.
public struct ManagementAuthenticationMethods: Sendable {
    let api: ManagementAPI

    /// A user's authentication methods: `GET /api/v2/users/{id}/authentication-methods`
    /// (spec §15.3). Needs `read:authentication_methods`.
    ///
    /// The answer is a bare array: the first page (50 methods by default); ask for another with
    /// `.parameters(["page": 1, "per_page": 100])`.
    ///
    /// - Parameter userID: the whole user ID.
    /// - Returns: the request; it decodes the methods, maybe none.
    public func list(ofUser userID: String) -> Request<[ManagementAuthenticationMethod], ManagementAPIError> {
        api.request(
            .get, "/users/\(ManagementAPI.segment(userID))/authentication-methods", retryable: true,
            ResponseHandling.json([ManagementAuthenticationMethod].self, ManagementAPIError.self))
    }

    /// Attaches a passkey to a user: `POST /api/v2/users/{id}/authentication-methods`
    /// (spec §15.3). Needs `create:authentication_methods`. The method is confirmed at once, and
    /// the passkey logs in with the native flow (§2, §3) like one made at signup.
    ///
    /// Never retried: a second attempt after a lost answer would meet the first (409).
    ///
    /// - Parameters:
    ///   - passkey: the passkey.
    ///   - userID: the whole user ID.
    /// - Returns: the request; it decodes the new method (201 Created). A credential ID already
    ///   attached fails with 409, a user at the methods limit with 403, a public key that is not
    ///   a COSE_Key with 400.
    public func create(
        _ passkey: NewPasskeyMethod, forUser userID: String
    ) -> Request<ManagementAuthenticationMethod, ManagementAPIError> {
        api.request(
            .post, "/users/\(ManagementAPI.segment(userID))/authentication-methods",
            body: JSONObject.members(of: passkey), retryable: false,
            ResponseHandling.json(ManagementAuthenticationMethod.self, ManagementAPIError.self))
    }

    /// Deletes one of a user's methods:
    /// `DELETE /api/v2/users/{id}/authentication-methods/{method id}` (spec §15.3). Needs
    /// `delete:authentication_methods`. Deleting is idempotent, so it is retried after a
    /// retryable failure.
    ///
    /// - Parameters:
    ///   - id: the method's ID, such as `passkey|dev_7Hq2Nw0cYtR4`.
    ///   - userID: the whole user ID.
    /// - Returns: the request; any success answers (204).
    public func delete(id: String, ofUser userID: String) -> Request<Void, ManagementAPIError> {
        api.request(
            .delete, "/users/\(ManagementAPI.segment(userID))/authentication-methods/\(ManagementAPI.segment(id))",
            retryable: true, ResponseHandling.none(ManagementAPIError.self))
    }
}
