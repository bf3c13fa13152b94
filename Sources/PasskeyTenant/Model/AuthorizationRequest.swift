/// What `GET /authorize` asked for, once checked (RFC 6749 §4.1.1, RFC 7636 §4.3, OpenID Connect
/// Core 1.0 §3.1.2.1; auth0-passkey-api.md §14.1): kept with the login page's transaction, then
/// bound into the authorization code the ceremony ends with.
struct AuthorizationRequest: Sendable, Hashable, Codable {
    /// The client the code is for.
    var clientID: String
    /// Where the browser goes back, an Allowed Callback URL.
    var redirectURI: String
    /// The client's `state`, echoed on every redirect (RFC 6749 §4.1.2).
    var state: String?
    /// The client's `nonce`, put in the ID token (OpenID Connect Core 1.0 §3.1.2.1).
    var nonce: String?
    /// The scopes asked for, space-separated as sent.
    var scope: String?
    /// The API asked for, if any.
    var audience: String?
    /// The organization asked for, if any (auth0-passkey-api.md §17).
    var organization: String?
    /// The PKCE `code_challenge`, `S256` (RFC 7636 §4.2); nil only for a confidential client,
    /// which authenticates when it redeems the code (Auth0 asks PKCE of public clients only).
    var codeChallenge: String?
    /// `prompt`: `none`, `login`, … (OpenID Connect Core 1.0 §3.1.2.1).
    var prompt: String?
    /// `max_age` in seconds: the oldest login the client accepts.
    var maxAge: Int?
    /// `screen_hint`: `signup` opens the signup screen.
    var screenHint: String?
    /// `login_hint`: the identifier to pre-fill.
    var loginHint: String?
    /// `ext-passkey-autostart=true` **[local]**: the page starts its first screen's ceremony on
    /// load instead of waiting for a click, for a browser no one clicks in (`passkey signup --web
    /// --browser … --headless`). Auth0 hands `ext-` parameters to the login page's template.
    var autostart: Bool?
    /// `dpop_jkt` (RFC 9449 §10): the thumbprint of the DPoP key the code is bound to; the code
    /// exchange then needs a proof of that key.
    var dpopJKT: String?
    /// `response_mode`, when not the default `query` (OAuth 2.0 Multiple Response Type Encoding
    /// Practices §2.1): how the code goes back (``AuthorizationResponse``).
    var responseMode: AuthorizationResponse.Mode?
    /// The ticket of an organization invitation (`invitation`), whose signup this is.
    var invitation: String? = nil

    /// An authorization response to this request with `parameters`, `state` last.
    func response(_ parameters: [(String, String?)]) -> AuthorizationResponse {
        AuthorizationResponse(redirectURI: redirectURI, mode: responseMode ?? .query, parameters + [("state", state)])
    }

    /// Whether the page opens on signup.
    var wantsSignup: Bool { screenHint == "signup" }
}
