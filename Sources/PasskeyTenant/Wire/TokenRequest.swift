public import WebAuthn

/// `POST /oauth/token`'s body, for every grant the tenant knows (auth0-passkey-api.md §3.1, §6.1,
/// §6.4, §14.3): `urn:okta:params:oauth:grant-type:webauthn`, `authorization_code` (RFC 6749
/// §4.1.3, with RFC 7636 §4.5's `code_verifier`) and `refresh_token`.
///
/// `authn_response` is read as both ceremonies' shapes; the session says which one counts
/// (§3.2).
public struct TokenRequest: Sendable, Hashable, Codable, JSONObject {
    public var clientID: String
    public var grantType: String
    public var authSession: Secret?
    public var authnResponse: PasskeyResponse?
    public var refreshToken: Secret?
    public var scope: String?
    public var audience: String?
    public var realm: String?
    public var organization: String?
    /// The authorization code of the code grant.
    public var code: Secret?
    /// The PKCE verifier of the code grant (RFC 7636 §4.5).
    public var codeVerifier: Secret?
    /// The code grant's `redirect_uri`, as `/authorize` had it (RFC 6749 §4.1.3).
    public var redirectURI: String?
    /// The client secret of a confidential client that authenticates with `client_secret_post`
    /// (RFC 6749 §2.3.1).
    public var clientSecret: Secret?
    /// The password grants' `username` (the user's email or username), or the passwordless OTP
    /// grant's (the email or phone number the code went to).
    public var username: String? = nil
    /// The password grants' `password`; never printed.
    public var password: Secret? = nil
    /// **[local]** The answer to bot detection's CAPTCHA (``DatabaseConnectionOptions/captchaAnswer``).
    public var captcha: Secret? = nil
    /// The RFC 7638 thumbprint of the request's DPoP proof's key, set by the token endpoint once
    /// the proof is checked (RFC 9449 §5); never read from the body.
    var dpopThumbprint: String? = nil
    /// The passwordless OTP grant's one-time code; never printed.
    public var otp: Secret? = nil

    /// The passkey grant's type.
    public static let webAuthnGrant = "urn:okta:params:oauth:grant-type:webauthn"
    /// The authorization code grant's type (RFC 6749 §4.1.3).
    public static let authorizationCodeGrant = "authorization_code"
    /// The refresh grant's type.
    public static let refreshGrant = "refresh_token"
    /// The client credentials grant's type (RFC 6749 §4.4), for Management API tokens.
    public static let clientCredentialsGrant = "client_credentials"
    /// Auth0's passwordless OTP grant's type: a code `/passwordless/start` sent.
    public static let passwordlessOTPGrant = "http://auth0.com/oauth/grant-type/passwordless/otp"
    /// Auth0's password grant with a realm (the database connection): `username`, `password`, `realm`.
    public static let passwordRealmGrant = "http://auth0.com/oauth/grant-type/password-realm"
    /// The resource owner password grant (RFC 6749 §4.3), on the tenant's default directory.
    public static let passwordGrant = "password"

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - grantType: the grant.
    ///   - clientID: the application.
    ///   - authSession: the webauthn grant's session.
    ///   - authnResponse: the webauthn grant's passkey response.
    ///   - refreshToken: the refresh grant's token.
    ///   - scope: the scopes asked for.
    ///   - audience: the API asked for.
    ///   - realm: the connection.
    ///   - organization: the organization.
    ///   - code: the code grant's authorization code.
    ///   - codeVerifier: the code grant's PKCE verifier.
    ///   - redirectURI: the code grant's redirect URI.
    ///   - clientSecret: the client credentials grant's secret.
    public init(
        grantType: String, clientID: String, authSession: Secret? = nil, authnResponse: PasskeyResponse? = nil,
        refreshToken: Secret? = nil, scope: String? = nil, audience: String? = nil, realm: String? = nil,
        organization: String? = nil, code: Secret? = nil, codeVerifier: Secret? = nil, redirectURI: String? = nil,
        clientSecret: Secret? = nil
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
        self.code = code
        self.codeVerifier = codeVerifier
        self.redirectURI = redirectURI
        self.clientSecret = clientSecret
    }

    /// The members, declared once (``JSONObject``): a plain JSON body reads itself with the JSON
    /// scanner, anything else through `JSONDecoder`, which names what is wrong. `client_id`, which
    /// may be absent (the client authenticates with `Authorization: Basic`, RFC 6749 §2.3.1), and
    /// `grant_type`, checked once the client is, read as empty when absent.
    package static var jsonMembers: JSONMembers<Self> {
        JSONMembers(
            [
                .member("client_id", \.clientID, default: ""), .member("grant_type", \.grantType, default: ""),
                .member("auth_session", \.authSession), .member("authn_response", \.authnResponse),
                .member("refresh_token", \.refreshToken), .member("scope", \.scope),
                .member("audience", \.audience), .member("realm", \.realm), .member("organization", \.organization),
                .member("code", \.code), .member("code_verifier", \.codeVerifier),
                .member("redirect_uri", \.redirectURI), .member("client_secret", \.clientSecret),
                .member("username", \.username), .member("otp", \.otp), .member("password", \.password),
                .member("captcha", \.captcha),
            ])
    }

    package static var unread: Self { Self(grantType: "", clientID: "") }
}
