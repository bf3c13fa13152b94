import FoundationEssentials
import WebAuthn

/// An invitation to join an organization, in the Management API's form (Auth0's
/// `POST /api/v2/organizations/{id}/invitations` answer):
///
/// ```
/// { "id": "uinv_…", "organization_id": "org_…", "inviter": {"name": string},
///   "invitee": {"email": string}, "invitation_url": string, "created_at": ISO 8601,
///   "expires_at": ISO 8601, "client_id": string, "connection_id"?: string,
///   "app_metadata"?: object, "user_metadata"?: object, "roles"?: [string], "ticket_id": string }
/// ```
///
/// The link (`invitation_url`) carries `invitation=<ticket_id>&organization=<org id>&organization_name=<name>`;
/// `/authorize` with those two parameters opens the login page on signup for the invitee
/// (``WebAuthAPI/invitationRequest(_:organization:)``), and the signup makes them a member and
/// uses the invitation up (``TenantServices/acceptInvitation(_:by:)``).
struct OrganizationInvitation: Sendable, Hashable, Codable {
    struct Inviter: Sendable, Hashable, Codable {
        var name: String
    }

    struct Invitee: Sendable, Hashable, Codable {
        var email: String
    }

    var id: String
    var organizationID: String
    var inviter: Inviter
    var invitee: Invitee
    var invitationURL: String
    var createdAt: String
    var expiresAt: String
    var clientID: String
    var connectionID: String?
    var appMetadata: [String: JSONValue]?
    var userMetadata: [String: JSONValue]?
    var roles: [String]?
    /// The secret of the link: who holds it may sign up as the invitee.
    var ticketID: String

    enum CodingKeys: String, CodingKey {
        case id, inviter, invitee, roles
        case organizationID = "organization_id"
        case invitationURL = "invitation_url"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case clientID = "client_id"
        case connectionID = "connection_id"
        case appMetadata = "app_metadata"
        case userMetadata = "user_metadata"
        case ticketID = "ticket_id"
    }
}

/// One organization's live invitations, oldest first, as `organization_invitations` keeps them
/// (``TenantSchema`` v14): under the SHA-256 digest of the organization's ID, until the last one
/// expires, so that listing, reading, deleting and using one are each one row's work.
struct OrganizationInvitations: Sendable, Hashable, Codable {
    /// At most this many live invitations per organization **[local]**.
    static let capacity = 1000

    /// An invitation and when it expires (its ``OrganizationInvitation/expiresAt`` as a date).
    struct Entry: Sendable, Hashable, Codable {
        var invitation: OrganizationInvitation
        var expiry: Date
    }

    var invitations: [Entry]
    var expiresAt: Date

    /// The key of `organizationID`'s invitations.
    static func key(_ organizationID: String) -> StoredValue {
        .digest(SHA256Digest.hash(Array(("invitations:" + organizationID).utf8)))
    }

    /// The invitations still live at `time`.
    func live(at time: Date) -> [OrganizationInvitation] {
        invitations.filter { $0.expiry > time }.map(\.invitation)
    }
}

extension OrganizationInvitations: ExpiringRecord {
    /// `organization_invitations`: the invitations as JSON under the digest of the organization's ID.
    static let table = ExpiringTable(name: "organization_invitations", key: "digest", columns: [("body", .text)])

    var storedValues: [StoredValue] { [.json(self)] }

    init(storedValues values: [StoredValue], expiresAt: Date) throws(TenantError) {
        self = try values[0].decodedJSON(Self.self, what: "organization invitations")
    }
}
