import FoundationEssentials

extension TenantServices {
    /// The organization a request names, by ID or name, checked against the application's
    /// `organization_usage` (auth0-passkey-api.md §17): the checks of `/passkey/register`,
    /// `/passkey/challenge`, the webauthn grant and `/authorize`.
    ///
    /// - Parameter organization: the request's `organization`, if any.
    /// - Returns: the organization; nil when none was named.
    /// - Throws: `invalid_request` with Auth0's `parameter organization is required for this client`
    ///   when usage is `require` and none was named, `organization is not allowed for this client`
    ///   when usage is `deny` and one was, `invalid organization` when it names none of the tenant's.
    func checkOrganization(_ organization: String?) throws(TenantError) -> TenantOrganization? {
        guard let organization else {
            if configuration.organizationUsage == .require {
                throw .invalidRequest("parameter organization is required for this client")
            }
            return nil
        }
        guard configuration.organizationUsage != .deny else {
            throw .invalidRequest("organization is not allowed for this client")
        }
        guard let found = configuration.organization(named: organization) else {
            throw .invalidRequest("invalid organization")
        }
        return found
    }

    /// Refuses a signup into an organization whose connection does not take signups
    /// (`is_signup_enabled`, auth0-passkey-api.md §17).
    ///
    /// - Throws: `access_denied` (403), `signup is not allowed for this organization`.
    func checkSignup(into organization: TenantOrganization?) throws(TenantError) {
        if let organization, !organization.signupEnabled {
            throw TenantError(.accessDenied, status: 403, "signup is not allowed for this organization")
        }
    }

    /// The organization a session, code or refresh token was issued for, by the ID (or, for one
    /// stored before organizations were checked, the name) it keeps.
    ///
    /// - Throws: `invalid_grant` when the tenant no longer has that organization.
    func issuedOrganization(_ organization: String?) throws(TenantError) -> TenantOrganization? {
        guard let organization else { return nil }
        guard let found = configuration.organization(named: organization) else {
            throw .invalidGrant("The organization of this grant no longer exists.")
        }
        return found
    }

    /// Lets `user` in through `organization` at a login: a member listed in the configuration or
    /// made one before passes; a non-member becomes one when the organization assigns membership on
    /// login, and is refused otherwise (auth0-passkey-api.md §17).
    ///
    /// - Throws: `access_denied` (403), `user <user_id> is not part of the <org_id> organization`.
    func admit(_ user: TenantUser, to organization: TenantOrganization?) async throws(TenantError) {
        guard let organization, !organization.lists(user) else { return }
        if try await store.isMember(userID: user.id, of: organization.id) { return }
        guard organization.assignMembershipOnLogin else {
            throw TenantError(
                .accessDenied, status: 403, "user \(user.id) is not part of the \(organization.id) organization")
        }
        try await store.addMember(userID: user.id, to: organization.id, at: clock.now())
    }

    /// Makes a user who signed up into `organization` one of its members.
    func join(_ user: TenantUser, to organization: TenantOrganization?) async throws(TenantError) {
        guard let organization else { return }
        try await store.addMember(userID: user.id, to: organization.id, at: clock.now())
    }
}
