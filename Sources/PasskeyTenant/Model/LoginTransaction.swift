import FoundationEssentials

/// One login page's state on the tenant: the `/authorize` request it serves and the ceremony in
/// flight, kept under the SHA-256 digest of the page's transaction ID (the `passkey_tx` cookie
/// and the form's `data-transaction`) for ``TenantConfiguration/loginTransactionLifetime``.
struct LoginTransaction: Sendable, Hashable, Codable {
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
    /// The user a pending signup creates.
    var user: TenantUser?
    /// When the page stops working.
    var expiresAt: Date
    /// The authorization response of a verified ceremony whose `response_mode` answers with a
    /// page (`form_post`, `web_message`): kept until `GET /u/passkey/response` renders it.
    var response: AuthorizationResponse?
}
