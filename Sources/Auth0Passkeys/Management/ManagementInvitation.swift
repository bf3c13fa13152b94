/// An organization invitation as the Management API answers it (Auth0's
/// `/api/v2/organizations/{id}/invitations`):
///
/// ```json
/// {"id":"uinv_…","organization_id":"org_…","inviter":{"name":"Ada"},"invitee":{"email":"grace@example.com"},
///  "invitation_url":"https://…?invitation=…&organization=org_…&organization_name=acme",
///  "created_at":"2026-11-28T21:00:00.000Z","expires_at":"2026-12-05T21:00:00.000Z",
///  "client_id":"…","roles":["rol_…"],"ticket_id":"…"}
/// ```
///
/// Only `id` is required; the other members are read when present.
public struct ManagementInvitation: Sendable, Hashable, Decodable {
    /// `inviter`: who invites.
    public struct Inviter: Sendable, Hashable, Decodable {
        /// `name`.
        public let name: String?
    }

    /// `invitee`: who is invited.
    public struct Invitee: Sendable, Hashable, Decodable {
        /// `email`: the only address the invitation signs up.
        public let email: String?
    }

    /// `id`: `uinv_…`.
    public let id: String
    /// `organization_id`.
    public let organizationId: String?
    /// `inviter`.
    public let inviter: Inviter?
    /// `invitee`.
    public let invitee: Invitee?
    /// `invitation_url`: the link the invitee opens; it carries `invitation` (the ticket) and
    /// `organization`.
    public let invitationURL: String?
    /// `created_at`, as sent (ISO 8601).
    public let createdAt: String?
    /// `expires_at`, as sent (ISO 8601).
    public let expiresAt: String?
    /// `client_id`: the application the invitee signs up to.
    public let clientId: String?
    /// `roles`; empty when absent.
    @MissingIsEmpty public private(set) var roles: [String]
    /// `ticket_id`: the invitation's secret, the link's `invitation`.
    public let ticketId: String?

    private enum CodingKeys: String, CodingKey {
        case id, inviter, invitee, roles
        case organizationId = "organization_id"
        case invitationURL = "invitation_url"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case clientId = "client_id"
        case ticketId = "ticket_id"
    }
}

/// The body of `POST /api/v2/organizations/{id}/invitations`: who invites, who is invited, to
/// which application; `nil` members are left out.
///
/// ```json
/// {"inviter":{"name":"Ada"},"invitee":{"email":"grace@example.com"},"client_id":"…","ttl_sec":3600}
/// ```
public struct NewManagementInvitation: Sendable, Hashable, Encodable {
    /// `inviter.name`: shown to the invitee.
    public var inviterName: String
    /// `invitee.email`: the only address the invitation signs up.
    public var inviteeEmail: String
    /// `client_id`: the application the invitee signs up to.
    public var clientId: String
    /// `ttl_sec`: seconds the invitation lives; Auth0's default (7 days) when `nil` or 0.
    public var ttlSec: Int?
    /// `roles`: role IDs to give the new member.
    public var roles: [String]?
    /// `send_invitation_email`: false to send no email; true when `nil`.
    public var sendInvitationEmail: Bool?

    /// Creates the body of an invitation.
    ///
    /// - Parameters:
    ///   - inviterName: who invites.
    ///   - inviteeEmail: who is invited.
    ///   - clientId: the application.
    ///   - ttlSec: its lifetime in seconds.
    ///   - roles: role IDs.
    ///   - sendInvitationEmail: whether to send the email.
    public init(
        inviterName: String, inviteeEmail: String, clientId: String, ttlSec: Int? = nil, roles: [String]? = nil,
        sendInvitationEmail: Bool? = nil
    ) {
        self.inviterName = inviterName
        self.inviteeEmail = inviteeEmail
        self.clientId = clientId
        self.ttlSec = ttlSec
        self.roles = roles
        self.sendInvitationEmail = sendInvitationEmail
    }

    private enum CodingKeys: String, CodingKey {
        case inviter, invitee, roles
        case clientId = "client_id"
        case ttlSec = "ttl_sec"
        case sendInvitationEmail = "send_invitation_email"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(["name": inviterName], forKey: .inviter)
        try container.encode(["email": inviteeEmail], forKey: .invitee)
        try container.encode(clientId, forKey: .clientId)
        try container.encodeIfPresent(ttlSec, forKey: .ttlSec)
        try container.encodeIfPresent(roles, forKey: .roles)
        try container.encodeIfPresent(sendInvitationEmail, forKey: .sendInvitationEmail)
    }
}
