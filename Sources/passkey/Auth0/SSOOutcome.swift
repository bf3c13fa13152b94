import Auth0Passkeys
import FoundationEssentials

/// What `passkey token --sso` reports: a session transfer token (Native to Web SSO), and the URL
/// that opens the web application with it when `--sso-url` names one.
struct SSOOutcome: CommandOutput {
    let sessionTransferToken: String
    let issuedTokenType: String
    let expiresAt: String
    /// `--sso-url` with `session_transfer_token=<token>` added to its query.
    let url: String?

    enum CodingKeys: String, CodingKey {
        case url
        case sessionTransferToken = "session_transfer_token"
        case issuedTokenType = "issued_token_type"
        case expiresAt = "expires_at"
    }

    init(_ credentials: SSOCredentials, url: String?) {
        sessionTransferToken = credentials.sessionTransferToken
        issuedTokenType = credentials.issuedTokenType
        expiresAt = SessionReport.timestamp(credentials.expiresAt)
        self.url = url.map { base in
            // The token is base64url: nothing in it needs escaping in a query.
            base + (base.contains("?") ? "&" : "?") + SSOCredentials.queryParameter + "="
                + credentials.sessionTransferToken
        }
    }

    /// The URL to open, or the token alone.
    var text: String { url ?? sessionTransferToken }
}
