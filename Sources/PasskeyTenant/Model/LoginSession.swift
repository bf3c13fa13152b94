import FoundationEssentials
import WebAuthn

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
    /// The session's ID, the `sid` claim of every ID token issued from it (OpenID Connect
    /// Front-Channel Logout 1.0 §3, Back-Channel Logout 1.0 §2.1): random, opaque, unrelated to
    /// the cookie, so neither can be had from the other. A new session gets a new one; nil for a
    /// session stored before the tenant kept it (its ID tokens then carry no `sid`).
    var sessionID: String? = LoginSession.newID()

    /// A new session ID: 16 random bytes, base64url (the form of the tenant's other identifiers).
    /// The native passkey grant, which has no browser session, gives each login one too (Auth0
    /// puts `sid` on the ID tokens of every session it creates, native ones included), kept by its
    /// refresh tokens.
    static func newID() -> String {
        Base64URL.encode(SecureRandom.bytes(16))
    }
}
