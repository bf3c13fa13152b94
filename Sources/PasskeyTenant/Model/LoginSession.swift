import FoundationEssentials

/// The browser's login session on the tenant: who logged in with a passkey on the login page,
/// and when. The `passkey_session` cookie holds its random ID; the tenant stores the SHA-256
/// digest. While it lives, `GET /authorize` issues a code without a new ceremony (OpenID Connect
/// Core 1.0 §3.1.2.3), unless `prompt=login`, `screen_hint=signup` or `max_age` says otherwise.
struct LoginSession: Sendable, Hashable {
    /// The user.
    var userID: String
    /// When they performed the ceremony.
    var authTime: Date
    /// When the session ends.
    var expiresAt: Date
}
