import FoundationEssentials

/// What an `auth_session` stands for until it is used once or expires: the ceremony it opened,
/// the challenge it issued, and who it is bound to.
struct PendingSession: Sendable, Hashable, Codable {
    /// The ceremony the session opened.
    enum Kind: String, Sendable, Hashable, Codable {
        /// `POST /passkey/register`: a create ceremony for a user not stored yet.
        case signup
        /// `POST /passkey/challenge`: a get ceremony for any user.
        case login
        /// `POST /me/v1/authentication-methods`: a create ceremony for a signed-in user.
        case enrollment
    }

    var kind: Kind
    /// The client the challenge was issued to.
    var clientID: String
    /// The connection (realm) the challenge was issued for.
    var connection: String
    /// The organization named at challenge time, if any.
    var organization: String?
    /// The challenge bytes.
    var challenge: [UInt8]
    /// The user to create (signup) or to add a passkey to (enrollment).
    var user: TenantUser?
    /// When it stops being accepted.
    var expiresAt: Date
}
