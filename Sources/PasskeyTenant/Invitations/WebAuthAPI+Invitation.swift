import FoundationEssentials

extension WebAuthAPI {
    /// `/authorize?invitation=<ticket>&organization=<org>` (Auth0's invitation flow): the login
    /// page opens on signup for the invitee's email, and the signup that follows makes them a
    /// member of the organization and uses the invitation up (``TenantServices/signupChecks(for:email:)``,
    /// ``TenantServices/joinAfterSignup(_:request:)``).
    ///
    /// - Parameters:
    ///   - ticket: the `invitation` parameter.
    ///   - request: the checked request, which takes the ticket, `screen_hint=signup` and the
    ///     invitee's email as `login_hint`.
    ///   - organization: the request's organization.
    /// - Throws: `invalid_request` without an organization, or for a ticket that is not one of its
    ///   live invitations (unknown, expired, used, deleted, or another organization's).
    func applyInvitation(
        _ ticket: String, to request: inout AuthorizationRequest, organization: TenantOrganization?
    ) async throws(TenantError) {
        guard let organization else {
            throw .invalidRequest("An invitation needs the organization it was issued for.")
        }
        let invitation = try await services.invitation(ticket: ticket, of: organization)
        request.invitation = ticket
        request.screenHint = "signup"
        request.loginHint = invitation.invitee.email
    }
}

extension TenantServices {
    /// The checks before a login page signup, for every kind of signup (passkey now, password
    /// later): into an organization that takes signups, or through an invitation of it, as its
    /// invitee (`email`), whatever the organization's `is_signup_enabled`.
    ///
    /// - Throws: `access_denied` (403) for an organization without signups or another email than
    ///   the invitee's; `invalid_request` for an invitation no longer live.
    func signupChecks(for request: AuthorizationRequest, email: String?) async throws(TenantError) {
        let organization = try issuedOrganization(request.organization)
        guard let ticket = request.invitation, let organization else {
            return try checkSignup(into: organization)
        }
        try checkInvitee(email, of: try await invitation(ticket: ticket, of: organization))
    }

    /// Makes a user who just signed up on the login page a member of the request's
    /// organization: through its invitation, used up, when it has one.
    ///
    /// - Throws: as ``acceptInvitation(_:organization:by:)``.
    func joinAfterSignup(_ user: TenantUser, request: AuthorizationRequest) async throws(TenantError) {
        let organization = try issuedOrganization(request.organization)
        guard let ticket = request.invitation, let organization else {
            return try await join(user, to: organization)
        }
        try await acceptInvitation(ticket, organization: organization, by: user)
    }
}
