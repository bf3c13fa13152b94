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

    /// Whether `audience` asks a refresh request for a session transfer token:
    /// `urn:<domain>:session_transfer`. Auth0.swift's `ssoExchange` sends its URL's host, the
    /// domain without a port, so that form is accepted too; **[local]** and when the domain is a
    /// loopback name, any loopback host (a client reaches a local tenant on `localhost` at
    /// `127.0.0.1`).
    static func isAudience(_ audience: String, domain: String) -> Bool {
        guard audience.hasPrefix("urn:"), audience.hasSuffix(":session_transfer") else { return false }
        let named = String(audience.dropFirst("urn:".count).dropLast(":session_transfer".count))
        let host = Self.host(domain)
        return named == domain || named == host
            || (RegisteredURL.isLoopback(host) && RegisteredURL.isLoopback(Self.host(named)))
    }

    /// `authority` without its port.
    private static func host(_ authority: String) -> String {
        authority.hasPrefix("[")
            ? String(authority.prefix { $0 != "]" }) + "]" : String(authority.prefix { $0 != ":" })
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
