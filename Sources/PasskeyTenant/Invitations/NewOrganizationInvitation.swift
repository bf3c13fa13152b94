import WebAuthn

/// `POST /api/v2/organizations/{id}/invitations`'s body, as Auth0 takes it:
///
/// ```
/// { "inviter": {"name": string}, "invitee": {"email": string}, "client_id": string,
///   "connection_id"?: string, "app_metadata"?: object, "user_metadata"?: object,
///   "ttl_sec"?: integer (0 … 2592000; 0 or absent: 604800), "roles"?: [string],
///   "send_invitation_email"?: boolean }
/// ```
///
/// Any other member fails to decode, and the caller answers 400 `invalid_body`.
struct NewOrganizationInvitation: Sendable, Hashable, Decodable {
    var inviter: OrganizationInvitation.Inviter
    var invitee: OrganizationInvitation.Invitee
    var clientID: String
    var connectionID: String?
    var appMetadata: [String: JSONValue]?
    var userMetadata: [String: JSONValue]?
    var ttlSec: Int?
    var roles: [String]?
    var sendInvitationEmail: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case inviter, invitee, roles
        case clientID = "client_id"
        case connectionID = "connection_id"
        case appMetadata = "app_metadata"
        case userMetadata = "user_metadata"
        case ttlSec = "ttl_sec"
        case sendInvitationEmail = "send_invitation_email"
    }

    /// Auth0's default lifetime, 7 days, and its longest, 30 days.
    static let defaultTTL = 604_800
    static let maximumTTL = 2_592_000

    init(from decoder: any Decoder) throws {
        try AnyKey.refuseUnknownMembers(of: decoder, "an invitation property") {
            CodingKeys(stringValue: $0) != nil
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        inviter = try container.decode(OrganizationInvitation.Inviter.self, forKey: .inviter)
        invitee = try container.decode(OrganizationInvitation.Invitee.self, forKey: .invitee)
        clientID = try container.decode(String.self, forKey: .clientID)
        connectionID = try container.decodeIfPresent(String.self, forKey: .connectionID)
        appMetadata = try container.decodeIfPresent([String: JSONValue].self, forKey: .appMetadata)
        userMetadata = try container.decodeIfPresent([String: JSONValue].self, forKey: .userMetadata)
        ttlSec = try container.decodeIfPresent(Int.self, forKey: .ttlSec)
        roles = try container.decodeIfPresent([String].self, forKey: .roles)
        sendInvitationEmail = try container.decodeIfPresent(Bool.self, forKey: .sendInvitationEmail)
    }

    /// The lifetime in seconds.
    ///
    /// - Throws: `invalid_body` (400) outside 0 … 30 days.
    func lifetime() throws(TenantError) -> Int {
        guard let ttlSec, ttlSec != 0 else { return Self.defaultTTL }
        guard (1...Self.maximumTTL).contains(ttlSec) else {
            throw TenantError(.invalidBody, "Payload validation error: ttl_sec must be between 0 and 2592000.")
        }
        return ttlSec
    }
}
