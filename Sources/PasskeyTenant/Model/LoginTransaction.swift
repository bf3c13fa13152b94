import FoundationEssentials

/// One login page's state on the tenant: the `/authorize` request it serves and the ceremony in
/// flight, kept under the SHA-256 digest of the page's transaction ID (the `passkey_tx` cookie
/// and the form's `data-transaction`) for ``TenantConfiguration/loginTransactionLifetime``.
///
/// The embedded mode **[local]** keeps its two steps as transactions too, each of its ``Kind``,
/// under the digest of its `request` secret: an authenticate request (the page's state, with no
/// page) and, once its ceremony verified, a continuation for `GET /embedded/continue`. Each API
/// takes only its own kind, so no secret opens another API's door.
struct LoginTransaction: Sendable, Hashable, Codable {
    /// Which API a transaction belongs to, besides the login page's (nil).
    enum Kind: String, Sendable, Hashable, Codable {
        /// `GET`/`POST /embedded/authenticate?request=…`: a ceremony with no page.
        case embedded
        /// `GET /embedded/continue?request=…`: a verified embedded ceremony (``user``, ``authTime``)
        /// or its refusal (``response``), answered once.
        case continuation
    }

    /// The ceremony the page asked options for last.
    enum Mode: String, Sendable, Hashable, Codable {
        /// `navigator.credentials.get`, discoverable.
        case login
        /// `navigator.credentials.create` for a new user.
        case signup
    }

    /// The `/authorize` request.
    var request: AuthorizationRequest
    /// The pending ceremony, if options were asked for and not answered yet.
    var mode: Mode?
    /// The pending ceremony's challenge; spent by the first answer, good or bad.
    var challenge: [UInt8]?
    /// The user a pending signup creates; in a continuation, the user who logged in.
    var user: TenantUser?
    /// When the page stops working.
    var expiresAt: Date
    /// The authorization response of a verified ceremony whose `response_mode` answers with a
    /// page (`form_post`, `web_message`): kept until `GET /u/passkey/response` renders it.
    var response: AuthorizationResponse?
    /// The embedded mode's kind; nil for the login page's.
    var kind: Kind? = nil
    /// When a continuation's ceremony was verified: its login session's `auth_time`.
    var authTime: Date? = nil
}
