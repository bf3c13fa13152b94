import FoundationEssentials

/// What an authorization code stands for (RFC 6749 §4.1.2; auth0-passkey-api.md §14.3): the
/// user who performed the ceremony and everything the code is bound to. Stored under the SHA-256
/// digest of the code, for ``TenantConfiguration/authorizationCodeLifetime``, redeemed once.
struct AuthorizationCode: Sendable, Hashable, Codable {
    /// The `/authorize` request the code answers: client, redirect URI, PKCE challenge, nonce,
    /// scope, audience, organization.
    var request: AuthorizationRequest
    /// The user.
    var userID: String
    /// When the user performed the passkey ceremony (the ID token's `auth_time`).
    var authTime: Date
    /// When the code stops being accepted.
    var expiresAt: Date
    /// The ID of the login session the code was issued from (the ID token's `sid`); nil for a
    /// code stored without one.
    var sessionID: String? = nil
}
