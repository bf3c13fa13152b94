import FoundationEssentials
import WebAuthn

extension TenantError.Code {
    /// The Management API's 404 for an organization ID that names no organization.
    static let inexistentOrganization = Self(rawValue: "inexistent_organization")
}

/// Organization invitations (Auth0's "Invite Organization Members"): created, listed, read and
/// deleted by the Management API (``InvitationsAPI``), sent to the outbox, and used once by the
/// invitee's signup on the login page.
extension TenantServices {
    /// The organization whose ID is `id`.
    ///
    /// - Throws: `inexistent_organization` (404).
    func invitingOrganization(_ id: String) throws(TenantError) -> TenantOrganization {
        guard let organization = configuration.organizations.first(where: { $0.id == id }) else {
            throw TenantError(.inexistentOrganization, status: 404, "No organization found by that id.")
        }
        return organization
    }

    /// Creates an invitation of `organization` and, unless `send_invitation_email` is false, sends
    /// its link to the invitee's outbox (``send(_:)``, ``OutboxMessage/Kind/invitation``).
    ///
    /// **[local]** The link is the tenant's `/authorize` with `client_id`, `invitation`,
    /// `organization` and `organization_name` (Auth0 builds it on the application's login URI,
    /// which the local tenant's applications do not have): the application adds its
    /// `redirect_uri`, PKCE and scope, or follows it as its login route would.
    ///
    /// - Throws: `inexistent_organization` (404); `invalid_body` (400) for an unknown `client_id`
    ///   or `connection_id` (the tenant's one connection by name), an invitee email without `@`,
    ///   a `ttl_sec` out of range, or more than ``OrganizationInvitations/capacity`` live ones.
    func createInvitation(_ body: NewOrganizationInvitation, organizationID: String) async throws(TenantError)
        -> OrganizationInvitation
    {
        let organization = try invitingOrganization(organizationID)
        guard application(body.clientID) != nil else {
            throw TenantError(.invalidBody, "client_id: no application of this tenant has that ID.")
        }
        if let connection = body.connectionID, connection != configuration.connection {
            throw TenantError(.invalidBody, "connection_id: the connection is not enabled for the organization.")
        }
        let email = body.invitee.email.lowercased()
        guard email.contains("@"), !body.inviter.name.isEmpty else {
            throw TenantError(.invalidBody, "Payload validation error: invitee.email and inviter.name are required.")
        }
        let now = clock.now()
        let expiry = now.addingTimeInterval(Double(try body.lifetime()))
        let ticket = Base64URL.encode(SecureRandom.bytes(24))
        let link =
            configuration.issuer + "authorize?"
            + FormParameters.encode([
                ("client_id", body.clientID), ("invitation", ticket), ("organization", organization.id),
                ("organization_name", organization.name),
            ])
        let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let invitation = OrganizationInvitation(
            id: "uinv_" + Self.invitationID(), organizationID: organization.id, inviter: body.inviter,
            invitee: .init(email: email), invitationURL: link, createdAt: now.formatted(format),
            expiresAt: expiry.formatted(format), clientID: body.clientID, connectionID: body.connectionID,
            appMetadata: body.appMetadata, userMetadata: body.userMetadata, roles: body.roles, ticketID: ticket)
        try await keep(OrganizationInvitations.Entry(invitation: invitation, expiry: expiry))
        if body.sendInvitationEmail != false {
            try await send(
                OutboxMessage(
                    id: Self.newMessageID(), to: email, channel: .email, kind: .invitation,
                    text:
                        "\(body.inviter.name) has invited you to join \(organization.displayName ?? organization.name).",
                    link: link, clientID: body.clientID, createdAt: now))
        }
        return invitation
    }

    /// Adds `entry` to its organization's row, dropping the expired ones.
    private func keep(_ entry: OrganizationInvitations.Entry) async throws(TenantError) {
        let key = OrganizationInvitations.key(entry.invitation.organizationID)
        for _ in 0..<2 {
            let now = clock.now()
            guard
                let before = try await store.update(
                    OrganizationInvitations.self, key: key, at: now,
                    { record in
                        guard record.live(at: now).count < OrganizationInvitations.capacity else { return }
                        record.invitations = record.invitations.filter { $0.expiry > now } + [entry]
                        record.expiresAt = max(record.expiresAt, entry.expiry)
                    })
            else {
                let record = OrganizationInvitations(invitations: [entry], expiresAt: entry.expiry)
                if try await store.insert(record, key: key, expiring: now) { return }
                continue
            }
            guard before.live(at: now).count < OrganizationInvitations.capacity else {
                throw TenantError(.invalidBody, "The organization has too many pending invitations.")
            }
            return
        }
        throw TenantError(.serverError, status: 500, "invitations: the organization's row could not be written")
    }

    /// The live invitations of the organization with `organizationID`, newest first.
    ///
    /// - Throws: `inexistent_organization` (404).
    func invitations(of organizationID: String) async throws(TenantError) -> [OrganizationInvitation] {
        let organization = try invitingOrganization(organizationID)
        let now = clock.now()
        let record = try await store.peek(
            OrganizationInvitations.self, key: OrganizationInvitations.key(organization.id), at: now)
        return (record?.live(at: now) ?? []).reversed()
    }

    /// Deletes an invitation; deleting one that is not there succeeds, as on Auth0.
    ///
    /// - Throws: `inexistent_organization` (404).
    func deleteInvitation(_ id: String, of organizationID: String) async throws(TenantError) {
        let organization = try invitingOrganization(organizationID)
        _ = try await store.update(
            OrganizationInvitations.self, key: OrganizationInvitations.key(organization.id), at: clock.now()
        ) { record in
            record.invitations.removeAll { $0.invitation.id == id }
        }
    }

    /// The live invitation whose ticket is `ticket`, of `organization`.
    ///
    /// - Throws: `invalid_request` when there is none: never created, expired, used, deleted, or
    ///   of another organization.
    func invitation(ticket: String, of organization: TenantOrganization) async throws(TenantError)
        -> OrganizationInvitation
    {
        let now = clock.now()
        let record = try await store.peek(
            OrganizationInvitations.self, key: OrganizationInvitations.key(organization.id), at: now)
        guard let found = record?.live(at: now).first(where: { $0.ticketID == ticket }) else {
            throw .invalidRequest("The invitation is not valid for this organization, has expired or was used.")
        }
        return found
    }

    /// Refuses a signup of another email than the invitee's.
    ///
    /// - Throws: `access_denied` (403).
    func checkInvitee(_ email: String?, of invitation: OrganizationInvitation) throws(TenantError) {
        guard email?.lowercased() == invitation.invitee.email else {
            throw TenantError(
                .accessDenied, status: 403, "The invitation is for another email address; sign up with the invited one."
            )
        }
    }

    /// Uses the invitation with `ticket` up for `user`, who just signed up through it, and makes
    /// them a member of its organization. Of two signups with one ticket, one gets it.
    ///
    /// **[local]** The invitation's `roles`, `app_metadata` and `user_metadata` are kept on it and
    /// shown by the Management API, but not given to the user: the tenant has no organization roles.
    ///
    /// - Throws: `invalid_request` when the invitation was used, deleted or expired meanwhile;
    ///   `access_denied` (403) for another email than the invitee's.
    func acceptInvitation(_ ticket: String, organization: TenantOrganization, by user: TenantUser)
        async throws(TenantError)
    {
        let invitation = try await invitation(ticket: ticket, of: organization)
        try checkInvitee(user.profile.email, of: invitation)
        let now = clock.now()
        let before = try await store.update(
            OrganizationInvitations.self, key: OrganizationInvitations.key(organization.id), at: now
        ) { record in
            record.invitations.removeAll { $0.invitation.ticketID == ticket }
        }
        guard before?.live(at: now).contains(where: { $0.ticketID == ticket }) == true else {
            throw .invalidRequest("The invitation is not valid for this organization, has expired or was used.")
        }
        try await store.addMember(userID: user.id, to: organization.id, at: now)
    }

    /// 16 letters and digits, the form of Auth0's invitation IDs after `uinv_`.
    private static func invitationID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String(SecureRandom.bytes(16).map { alphabet[Int($0) % alphabet.count] })
    }
}
