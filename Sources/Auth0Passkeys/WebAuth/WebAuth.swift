import WebAuthn

/// Auth0's Web Auth: the authorization code flow with PKCE through the tenant's login page
/// (Universal Login), with the names and defaults of Auth0.swift's `webAuth()` (spec §14).
///
/// ``start(using:)`` sends the user agent to `/authorize` with a PKCE challenge (RFC 7636),
/// `state` and `nonce` (32 random bytes each), waits for the redirect, checks its `state`,
/// exchanges the code with the verifier, and validates the ID token before it returns anything
/// (signature over the tenant's JWKS, issuer, audience, expiry, `nonce`, `auth_time` against
/// `max_age`, organization: ``IDTokenValidator``).
///
/// ```swift
/// let credentials = try await WebAuth(authentication: auth)
///     .redirectURL("http://127.0.0.1:53117/callback")
///     .parameters(["screen_hint": "signup"])
///     .start(using: browser)
/// try await manager.store(credentials: credentials)
/// ```
///
/// The user agent is anything that opens a URL and brings back where the tenant redirected
/// (``WebAuthUserAgent``): the system browser with a loopback listener (RFC 8252 §7.3), as
/// `passkey login --web` does, or a browser a test drives.
///
/// A regular web application is a confidential client: it exchanges the code with its secret
/// (``clientAuthentication(_:)``, RFC 6749 §2.3.1, §4.1.3), and PKCE still binds the code to
/// this login. Its ``CredentialsManager`` takes the same ``ClientAuthentication``, to renew and
/// revoke the refresh token.
///
/// A value: each builder method returns a changed copy.
public struct WebAuth: Sendable {
    /// The client whose tenant and client ID the login goes to, and which exchanges the code.
    public let authentication: Authentication
    /// Where the tenant redirects back: one of the application's Allowed Callback URLs.
    public private(set) var redirectURL: String?
    /// The scopes; `openid` is always added (spec §14.1). Auth0.swift 3's default, with a
    /// refresh token.
    public private(set) var scope = Authentication.defaultScope
    /// The API the access token is for.
    public private(set) var audience: String?
    /// The connection to log in with.
    public private(set) var connection: String?
    /// The organization: an `org_` ID, or a name.
    public private(set) var organization: String?
    /// The invitation ID of an organization invitation link.
    public private(set) var invitation: String?
    /// The longest time since the user last authenticated, in seconds (`max_age`).
    public private(set) var maxAge: Int?
    /// The `state`; a new random one for each login when `nil`.
    public private(set) var state: String?
    /// The `nonce`; a new random one for each login when `nil`.
    public private(set) var nonce: String?
    /// More `/authorize` parameters (`prompt`, `screen_hint`, `login_hint`, …); they replace the
    /// ones the SDK sets, and `openid` is then added to `scope` again.
    public private(set) var parameters: [String: String] = [:]
    /// The issuer the ID token must name; by default the tenant's (``IDTokenValidator/init(authentication:issuer:leeway:now:)``).
    public private(set) var issuer: String?
    /// The slack on the ID token's `exp` and `auth_time`, in seconds: 60, where Auth0.swift adds
    /// its `60000` (documented as milliseconds) as seconds.
    public private(set) var leeway = 60
    /// How the application authenticates when it exchanges the code: ``ClientAuthentication/none``,
    /// a public client (a native or single-page app), by default; a regular web application's
    /// secret otherwise (RFC 6749 §2.3.1, §4.1.3).
    public private(set) var clientAuthentication = ClientAuthentication.none
    /// The validator of the ID token; when `nil`, each login makes one of ``issuer`` and
    /// ``leeway``, which fetches the JWKS again.
    public private(set) var idTokenValidator: IDTokenValidator?
    private var invitationError = false

    /// Creates a Web Auth client for the tenant `authentication` talks to.
    ///
    /// - Parameter authentication: the Authentication API client (its client ID, base URL and
    ///   transport).
    public init(authentication: Authentication) {
        self.authentication = authentication
    }

    // MARK: Builder

    /// Sets the redirect URL. - Returns: a copy.
    public func redirectURL(_ url: String) -> WebAuth { with { $0.redirectURL = url } }
    /// Sets the scopes (`openid` is added when missing). - Returns: a copy.
    public func scope(_ scope: String) -> WebAuth { with { $0.scope = scope } }
    /// Sets the API audience. - Returns: a copy.
    public func audience(_ audience: String) -> WebAuth { with { $0.audience = audience } }
    /// Sets the connection. - Returns: a copy.
    public func connection(_ connection: String) -> WebAuth { with { $0.connection = connection } }
    /// Sets the organization (an `org_` ID or a name). - Returns: a copy.
    public func organization(_ organization: String) -> WebAuth { with { $0.organization = organization } }
    /// Sets `max_age`, in seconds. - Returns: a copy.
    public func maxAge(_ seconds: Int) -> WebAuth { with { $0.maxAge = seconds } }
    /// Sets the `state` instead of a random one. - Returns: a copy.
    public func state(_ state: String) -> WebAuth { with { $0.state = state } }
    /// Sets the `nonce` instead of a random one. - Returns: a copy.
    public func nonce(_ nonce: String) -> WebAuth { with { $0.nonce = nonce } }
    /// Adds `/authorize` parameters, which replace the SDK's own. - Returns: a copy.
    public func parameters(_ parameters: [String: String]) -> WebAuth {
        with { $0.parameters.merge(parameters) { $1 } }
    }
    /// Sets the issuer the ID token must name. - Returns: a copy.
    public func issuer(_ issuer: String) -> WebAuth { with { $0.issuer = issuer } }
    /// Sets the leeway on `exp` and `auth_time`, in seconds. - Returns: a copy.
    public func leeway(_ seconds: Int) -> WebAuth { with { $0.leeway = seconds } }
    /// Sets how the application authenticates at the code exchange: a regular web application's
    /// client secret, in the body or in `Authorization: Basic` (RFC 6749 §2.3.1). - Returns: a copy.
    public func clientAuthentication(_ authentication: ClientAuthentication) -> WebAuth {
        with { $0.clientAuthentication = authentication }
    }
    /// Sets the validator of the ID token, so that logins share the JWKS it fetched (a server
    /// logging many users in); ``issuer`` and ``leeway`` are then the validator's. - Returns: a copy.
    public func idTokenValidator(_ validator: IDTokenValidator) -> WebAuth { with { $0.idTokenValidator = validator } }

    /// Takes `invitation` and `organization` from an organization invitation link's query, as
    /// Auth0.swift's `invitationURL(_:)` does; a link without both fails ``start(using:)`` with
    /// ``WebAuthError/Code/invalidInvitationURL``. - Returns: a copy.
    public func invitationURL(_ url: String) -> WebAuth {
        with {
            let query = WebAuthCallback(url, redirectURL: url)
            if let invitation = query?["invitation"], let organization = query?["organization"] {
                $0.invitation = invitation
                $0.organization = organization
                $0.invitationError = false
            } else {
                $0.invitationError = true
            }
        }
    }

    private func with(_ change: (inout WebAuth) -> Void) -> WebAuth {
        var copy = self
        change(&copy)
        return copy
    }

    // MARK: Flows

    /// A new login: the `/authorize` URL with fresh PKCE, `state` and `nonce`, and what
    /// ``WebAuthAuthorization/credentials(fromCallback:)`` needs to finish it. For a user agent
    /// that cannot be a ``WebAuthUserAgent``; ``start(using:)`` does both steps.
    ///
    /// - Returns: the pending authorization.
    /// - Throws: ``WebAuthError/Code/invalidConfiguration`` without a redirect URL;
    ///   ``WebAuthError/Code/invalidInvitationURL``.
    public func authorization() throws(WebAuthError) -> WebAuthAuthorization {
        guard let redirectURL, redirectURL.contains("://") else {
            throw WebAuthError(.invalidConfiguration, "Web Auth needs an absolute redirect URL.")
        }
        if invitationError {
            throw WebAuthError(.invalidInvitationURL, "The invitation URL has no invitation and organization.")
        }
        let proofKey = ProofKey()
        let state = state ?? Base64URL.encode(SecureRandom.bytes(32))
        let nonce = nonce ?? Base64URL.encode(SecureRandom.bytes(32))
        var items: [(String, String)] = [
            ("response_type", "code"), ("client_id", authentication.clientId), ("redirect_uri", redirectURL),
            ("scope", Scope.includingOpenID(scope)), ("state", state), ("nonce", nonce),
            ("code_challenge", proofKey.challenge), ("code_challenge_method", ProofKey.method),
        ]
        if let clientInfo = authentication.endpoint.client.clientInfo {
            items.append(("auth0Client", clientInfo.headerValue))
        }
        if let dpop = authentication.dpop {
            // RFC 9449 §10: the code is bound to the key whose proof the exchange will carry.
            items.append(("dpop_jkt", dpop.keyMakingIfNeeded().thumbprint))
        }
        let optional: [(String, String?)] = [
            ("audience", audience), ("connection", connection), ("organization", organization),
            ("invitation", invitation), ("max_age", maxAge.map(String.init)),
        ]
        items += optional.compactMap { name, value in value.map { (name, $0) } }
        for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
            items.removeAll { $0.0 == name }
            items.append((name, name == "scope" ? Scope.includingOpenID(value) : value))
        }
        let query = items.map { "\(PercentEncoding.encode($0.0))=\(PercentEncoding.encode($0.1))" }
        let sent = Dictionary(items, uniquingKeysWith: { $1 })
        return WebAuthAuthorization(
            url: authentication.url + "authorize?" + query.joined(separator: "&"), redirectURL: redirectURL,
            state: sent["state"] ?? state, nonce: sent["nonce"], proofKey: proofKey,
            maxAge: sent["max_age"].flatMap { Int($0) }, organization: sent["organization"],
            authentication: authentication, clientAuthentication: clientAuthentication,
            validator: idTokenValidator
                ?? IDTokenValidator(authentication: authentication, issuer: issuer, leeway: leeway))
    }

    /// Logs in through the tenant's page: opens `/authorize` in `userAgent`, then finishes with
    /// what it brings back (``WebAuthAuthorization/credentials(fromCallback:)``).
    ///
    /// - Parameter userAgent: what shows the page and follows the redirect.
    /// - Returns: credentials whose ID token passed validation.
    /// - Throws: ``WebAuthError``.
    public func start(using userAgent: some WebAuthUserAgent) async throws(WebAuthError) -> Credentials {
        let authorization = try authorization()
        let callback = try await Self.open(authorization.url, redirectURL: authorization.redirectURL, userAgent)
        return try await authorization.credentials(fromCallback: callback)
    }

    /// Ends the session at the tenant: opens `/v2/logout` with `returnTo` (the redirect URL) and
    /// `client_id` (spec §14.4), and waits until the tenant sends the user agent back. The
    /// application's stored credentials are its own to clear.
    ///
    /// - Parameters:
    ///   - federated: whether to log out of the identity provider too (`federated`).
    ///   - userAgent: what opens the page.
    /// - Throws: ``WebAuthError``: ``WebAuthError/Code/invalidConfiguration`` without a
    ///   redirect URL, or the user agent's failure.
    public func clearSession(federated: Bool = false, using userAgent: some WebAuthUserAgent)
        async throws(WebAuthError)
    {
        guard let redirectURL else {
            throw WebAuthError(.invalidConfiguration, "Logging out needs a return URL (the redirect URL).")
        }
        var url =
            authentication.url + "v2/logout?returnTo=" + PercentEncoding.encode(redirectURL) + "&client_id="
            + PercentEncoding.encode(authentication.clientId)
        if federated { url += "&federated" }
        _ = try await Self.open(url, redirectURL: redirectURL, userAgent)
    }

    /// Runs the user agent, its failures as ``WebAuthError``s.
    private static func open(_ url: String, redirectURL: String, _ userAgent: some WebAuthUserAgent)
        async throws(WebAuthError) -> String
    {
        do {
            return try await userAgent.open(url, awaitingRedirectTo: redirectURL)
        } catch is CancellationError {
            throw WebAuthError(.userCancelled, "The login was cancelled.")
        } catch {
            throw WebAuthError(.userAgentFailed, "The browser did not bring the tenant's redirect back.", cause: error)
        }
    }
}
