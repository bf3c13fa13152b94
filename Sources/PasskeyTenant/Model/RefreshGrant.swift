import FoundationEssentials

/// What a refresh token grants: the user, client, scope and audience of the login that issued it.
///
/// Each use rotates it: the used token is marked and a new one of the same ``family`` issued; a
/// marked token presented again revokes the whole family (refresh-token reuse detection).
struct RefreshGrant: Sendable, Hashable {
    var userID: String
    var clientID: String
    /// The granted scopes, `offline_access` among them.
    var scope: [String]
    /// The audience of the original grant, if one was asked for.
    var audience: String?
    var organization: String?
    /// Every token rotated from one login shares a family.
    var family: String
    var expiresAt: Date
    /// When the user performed the passkey ceremony of the original login (the ID token's
    /// `auth_time` on every refresh, OpenID Connect Core 1.0 §12.2); nil for tokens stored before
    /// it was kept.
    var authTime: Date?
    /// The thumbprint of the DPoP key the token is bound to (RFC 9449 §5): refreshing needs a
    /// proof of that key. Nil for an unbound token; rotation keeps it.
    var dpopJKT: String? = nil
    /// The ID of the login session of the original login (the ID token's `sid` on every refresh,
    /// as on the first ID token); rotation keeps it. Nil for tokens stored before it was kept.
    var sessionID: String? = nil
}
