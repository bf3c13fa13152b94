import FoundationEssentials
import WebAuthn

/// A session transfer token's grant (Auth0's Native to Web SSO): a native application's user,
/// handed to a web application of the tenant, which opens a web session for them without a login.
///
/// The token is 32 random bytes in base64url, opaque, and `session_transfer_tokens` keeps its
/// SHA-256 digest (``TenantSchema`` v14) until ``TenantConfiguration/sessionTransferLifetime``
/// ends it. `/authorize` takes it once (``WebAuthAPI/redeemSessionTransfer(_:for:)``). **[local]**
/// Auth0 does not document the token's form: the local tenant's is opaque, so a token it did not
/// issue, malformed or forged, is simply unknown.
struct SessionTransfer: Sendable, Hashable, Codable {
    /// The user the web session is for.
    var userID: String
    /// The application whose refresh token was exchanged for it.
    var clientID: String
    /// When the user performed the ceremony of the native login (the web session's `auth_time`).
    var authTime: Date?
    /// The organization of the native login, if any.
    var organization: String?
    var expiresAt: Date

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case clientID = "client_id"
        case authTime = "auth_time"
        case organization
        case expiresAt = "expires_at"
    }

    /// The `audience` a refresh request names to get a session transfer token:
    /// `urn:<domain>:session_transfer`, as Auth0.swift's `ssoExchange` sends it with its URL's host
    /// (the domain without a port), so both forms are accepted.
    static func isAudience(_ audience: String, domain: String) -> Bool {
        let host =
            domain.hasPrefix("[") ? String(domain.prefix { $0 != "]" }) + "]" : String(domain.prefix { $0 != ":" })
        return audience == "urn:\(domain):session_transfer" || audience == "urn:\(host):session_transfer"
    }

    /// The answer's `issued_token_type` (RFC 8693 §2.2.1, Auth0's type URI).
    static let issuedTokenType = "urn:auth0:params:oauth:token-type:session_transfer_token"
    /// The answer's `token_type`: the token is no access token (RFC 8693 §2.2.1, `N_A`).
    static let tokenType = "N_A"
    /// The `/authorize` parameter, and the cookie, that carry the token to a web application.
    static let parameter = "session_transfer_token"
    static let cookie = "auth0_session_transfer_token"
}

extension SessionTransfer: ExpiringRecord {
    /// `session_transfer_tokens`: the grant as JSON under the digest of the token.
    static let table = ExpiringTable(name: "session_transfer_tokens", key: "digest", columns: [("body", .text)])

    var storedValues: [StoredValue] { [.json(self)] }

    init(storedValues values: [StoredValue], expiresAt: Date) throws(TenantError) {
        self = try values[0].decodedJSON(Self.self, what: "session transfer token")
    }
}
