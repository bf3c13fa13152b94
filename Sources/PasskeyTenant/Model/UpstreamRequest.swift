import FoundationEssentials

/// An authorization request the tenant sent to an upstream connection's issuer on behalf of an
/// application's `/authorize` (OpenID Connect Core 1.0 §3.1.2.1; RFC 7636 §4.1): what
/// `GET /login/callback` needs to finish it, kept under the SHA-256 digest of the upstream `state`
/// for ``TenantConfiguration/loginTransactionLifetime`` and taken once.
///
/// The browser holds the `state` twice: in the upstream's redirect and in the `passkey_upstream`
/// cookie, which binds the request to the browser that began it (RFC 6749 §10.12).
struct UpstreamRequest: Sendable, Hashable, Codable {
    /// The connection's name.
    var connection: String
    /// The application's `/authorize` request, answered once the upstream login is done.
    var request: AuthorizationRequest
    /// The PKCE verifier whose S256 challenge went upstream (RFC 7636 §4.1).
    var codeVerifier: String
    /// The `nonce` sent upstream, which its ID token must carry.
    var nonce: String
    /// The `redirect_uri` sent upstream: the tenant's own `/login/callback`.
    var redirectURI: String
    /// When the request stops working.
    var expiresAt: Date
}

extension UpstreamRequest: ExpiringRecord {
    /// `upstream_requests`: the request as JSON under the digest of its `state`.
    static let table = ExpiringTable(name: "upstream_requests", key: "digest", columns: [("body", .text)])

    var storedValues: [StoredValue] { [.json(self)] }

    init(storedValues values: [StoredValue], expiresAt: Date) throws(TenantError) {
        self = try values[0].decodedJSON(Self.self, what: "upstream request")
    }
}
