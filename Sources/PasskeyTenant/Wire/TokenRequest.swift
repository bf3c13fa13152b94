import WebAuthn

/// `POST /oauth/token`'s body, for every grant the tenant knows (auth0-passkey-api.md §3.1, §6.1,
/// §6.4): `urn:okta:params:oauth:grant-type:webauthn` and `refresh_token`.
///
/// `authn_response` is read as both ceremonies' shapes; the session says which one counts
/// (§3.2).
public struct TokenRequest: Sendable, Hashable, Codable {
    public var clientID: String
    public var grantType: String
    public var authSession: Secret?
    public var authnResponse: PasskeyResponse?
    public var refreshToken: Secret?
    public var scope: String?
    public var audience: String?
    public var realm: String?
    public var organization: String?

    /// The passkey grant's type.
    public static let webAuthnGrant = "urn:okta:params:oauth:grant-type:webauthn"
    /// The refresh grant's type.
    public static let refreshGrant = "refresh_token"

    /// Creates a request.
    public init(
        grantType: String, clientID: String, authSession: Secret? = nil, authnResponse: PasskeyResponse? = nil,
        refreshToken: Secret? = nil, scope: String? = nil, audience: String? = nil, realm: String? = nil,
        organization: String? = nil
    ) {
        self.grantType = grantType
        self.clientID = clientID
        self.authSession = authSession
        self.authnResponse = authnResponse
        self.refreshToken = refreshToken
        self.scope = scope
        self.audience = audience
        self.realm = realm
        self.organization = organization
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case grantType = "grant_type"
        case authSession = "auth_session"
        case authnResponse = "authn_response"
        case refreshToken = "refresh_token"
        case scope, audience, realm, organization
    }
}
