public import Auth0Passkeys

extension VirtualUser {
    /// Logs in (or signs up) through the tenant's login page, as an app's Web Auth does
    /// (auth0-passkey-api.md §14): `/authorize` with PKCE, `state` and `nonce` in `userAgent`, the
    /// redirect checked, the code exchanged, the ID token validated with the nonce and max age,
    /// and the credentials kept as the session.
    ///
    /// The tenant's connection (or `connection`), audience, scope and organization go to
    /// `/authorize`; whatever answers the page's passkey request (a person, a browser's virtual
    /// authenticator, the page bridge over this user's store, a ``LoginPageUserAgent`` with this
    /// user's device) is the user agent's. With an upstream connection the tenant sends the user
    /// agent on to that identity provider and takes its answer back (issue 40): a
    /// ``LoginPageUserAgent`` given the application's invoke URL completes a provider's embedded
    /// mode with the device, and its page-driven mode on the provider's page.
    ///
    /// ```swift
    /// try await RedirectListener.listening { listener in
    ///     try await user.logInOnTheWeb(redirectURL: listener.url, using: BrowserUserAgent.system(listener))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - redirectURL: one of the application's Allowed Callback URLs, which `userAgent` hears.
    ///   - connection: the connection to log in with (an upstream OpenID Connect one, say)
    ///     instead of the tenant's.
    ///   - signUp: whether to open the signup screen (`screen_hint=signup`, with `prompt=login`).
    ///   - loginHint: the identifier to pre-fill (`login_hint`).
    ///   - maxAge: the longest time since the user last authenticated (`max_age`), in seconds.
    ///   - parameters: more `/authorize` parameters (`prompt`, …).
    ///   - userAgent: what shows the page and brings back the redirect.
    /// - Returns: the user (from the validated ID token) and the credentials.
    /// - Throws: ``PasskeyFlowError/webAuth(_:)``, or ``PasskeyFlowError/session(_:)`` when the
    ///   session cannot be kept.
    @discardableResult
    public func logInOnTheWeb(
        redirectURL: String, connection: String? = nil, signUp: Bool = false, loginHint: String? = nil,
        maxAge: Int? = nil,
        parameters: [String: String] = [:], using userAgent: some WebAuthUserAgent
    ) async throws(PasskeyFlowError) -> WebLogInResult {
        var webAuth = WebAuth(authentication: loginAuthentication).redirectURL(redirectURL).scope(tenant.scope)
            .clientAuthentication(tenant.clientAuthentication)
        if let domain = tenant.domain { webAuth = webAuth.issuer("https://\(domain)/") }
        if let audience = tenant.audience { webAuth = webAuth.audience(audience) }
        if let connection = connection ?? tenant.connection { webAuth = webAuth.connection(connection) }
        if let organization = tenant.organization { webAuth = webAuth.organization(organization) }
        if let maxAge { webAuth = webAuth.maxAge(maxAge) }
        var extra = parameters
        if signUp {
            extra["screen_hint"] = "signup"
            extra["prompt"] = extra["prompt"] ?? "login"
        }
        if let loginHint { extra["login_hint"] = loginHint }
        let credentials: Credentials
        do {
            credentials = try await webAuth.parameters(extra).start(using: userAgent)
        } catch {
            throw .webAuth(error)
        }
        let user = try await startSession(credentials)
        return WebLogInResult(user: user, credentials: credentials)
    }
}
