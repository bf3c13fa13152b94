import WebAuthn

/// The organization invitation calls of the Management API (Auth0's
/// `/api/v2/organizations/{id}/invitations`), reached through ``ManagementAPI/organizations``.
/// Organization IDs and invitation IDs are sent as one path segment each.
public struct ManagementOrganizations: Sendable {
    let api: ManagementAPI

    /// Invites someone to an organization: `POST /api/v2/organizations/{id}/invitations`. Needs
    /// `create:organization_invitations`. Never retried: a second attempt would invite twice.
    ///
    /// - Parameters:
    ///   - invitation: who invites whom, to which application.
    ///   - organization: the organization's ID.
    /// - Returns: the request; it decodes the ``ManagementInvitation`` (201 Created).
    public func createInvitation(_ invitation: NewManagementInvitation, organization: String) -> Request<
        ManagementInvitation, ManagementAPIError
    > {
        api.request(
            .post, path(organization), body: JSONObject.members(of: invitation), retryable: false,
            ResponseHandling.json(ManagementInvitation.self, ManagementAPIError.self))
    }

    /// The organization's pending invitations: `GET /api/v2/organizations/{id}/invitations`, one
    /// page of them. Needs `read:organization_invitations`.
    ///
    /// - Parameters:
    ///   - organization: the organization's ID.
    ///   - page: the page, from 0.
    ///   - perPage: the invitations per page.
    /// - Returns: the request; it decodes the invitations, maybe none.
    public func invitations(organization: String, page: Int = 0, perPage: Int = 50) -> Request<
        [ManagementInvitation], ManagementAPIError
    > {
        api.request(
            .get, path(organization),
            body: ["page": .string(String(page)), "per_page": .string(String(perPage))], retryable: true,
            ResponseHandling.json([ManagementInvitation].self, ManagementAPIError.self))
    }

    /// One invitation: `GET /api/v2/organizations/{id}/invitations/{invitation id}`. Needs
    /// `read:organization_invitations`.
    ///
    /// - Returns: the request; it decodes the invitation, or fails with 404
    ///   (``ManagementAPIError/isNotFound``) once it is used, deleted or expired.
    public func invitation(id: String, organization: String) -> Request<ManagementInvitation, ManagementAPIError> {
        api.request(
            .get, path(organization) + "/" + ManagementAPI.segment(id), retryable: true,
            ResponseHandling.json(ManagementInvitation.self, ManagementAPIError.self))
    }

    /// Deletes an invitation: `DELETE /api/v2/organizations/{id}/invitations/{invitation id}`.
    /// Needs `delete:organization_invitations`. Idempotent, so retried after a retryable failure.
    ///
    /// - Returns: the request; any success answers (204).
    public func deleteInvitation(id: String, organization: String) -> Request<Void, ManagementAPIError> {
        api.request(
            .delete, path(organization) + "/" + ManagementAPI.segment(id), retryable: true,
            ResponseHandling.none(ManagementAPIError.self))
    }

    private func path(_ organization: String) -> String {
        "/organizations/\(ManagementAPI.segment(organization))/invitations"
    }
}
