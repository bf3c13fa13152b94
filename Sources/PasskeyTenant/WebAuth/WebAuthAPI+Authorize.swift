import FoundationEssentials
import HTTPTypes
import WebAuthn

extension WebAuthAPI {
    /// `GET /authorize` (RFC 6749 §4.1.1, RFC 7636 §4.3, OpenID Connect Core 1.0 §3.1.2;
    /// auth0-passkey-api.md §14.1, §14.2): checks the request, then issues a code at once over a
    /// live login session, or serves the login page.
    ///
    /// The checks, in order: an unknown or missing `client_id`, or a `redirect_uri` that is missing
    /// or not an Allowed Callback URL, get a 400 page, never a redirect (RFC 6749 §4.1.2.1: the
    /// redirect URI is not trusted); so does `response_mode=web_message` when the redirect URI's
    /// origin is not one of the client's Allowed Web Origins (the message would go to an origin the
    /// client does not own). With `web_message` that origin is what is checked and the redirect URI
    /// need not be a callback: auth0-spa-js renews with `redirect_uri` set to the page's origin, and
    /// the message goes to that origin whatever the path. Every later refusal goes to the redirect
    /// URI with `error`, `error_description` and `state`, in the request's `response_mode`
    /// (``AuthorizationResponse``; `query` when the mode is repeated or unknown, both
    /// `invalid_request`): `unsupported_response_type` for a `response_type` other than `code`;
    /// `invalid_request` for a repeated parameter, a missing `code_challenge` from a public client
    /// (PKCE is required of it, RFC 7636 §4.4.1; a confidential one may do without, as on Auth0), a
    /// method other than `S256` (`plain` included) or one without a challenge, a challenge that is
    /// not 43 base64url characters,
    /// an unknown `connection` (neither the database connection nor an upstream one), a `max_age` that is not a non-negative integer or a `dpop_jkt`
    /// that is not a SHA-256 JWK thumbprint (RFC 9449 §10: it binds the code), and for an
    /// `organization` missing under `require`, given under `deny` or unknown (auth0-passkey-api.md
    /// §17); `access_denied` for an unknown `audience`, and for a session's user who is not a member
    /// of the organization; `login_required` for `prompt=none` without a usable session.
    /// Then a live session issues a code at once; else an upstream `connection` sends the browser
    /// to its issuer (``startUpstreamLogin(_:at:origin:secure:)``), and any other request gets the
    /// login page, with a "Continue with NAME" link per upstream connection.
    ///
    /// - Parameters:
    ///   - query: the query string, without `?`.
    ///   - sessionCookie: the `passkey_session` cookie, if any.
    ///   - secure: whether the tenant serves TLS (cookies get `Secure`).
    ///   - transferCookie: the `auth0_session_transfer_token` cookie, if any: with the
    ///     `session_transfer_token` parameter, a session transfer token
    ///     (``redeemSessionTransfer(_:for:client:organization:secure:)``).
    ///   - host: the `Host` the browser sent: the tenant's origin as the browser reaches it, where an
    ///     upstream connection sends the browser back, and where the authenticate URL of a client
    ///     with an invoke URL is (``tenantOrigin(host:secure:acceptedOnly:)``).
    /// - Returns: the page or redirect; for a client with an invoke URL, after every check and
    ///   unless a login session issues the code, the redirect to its invoke URL
    ///   (``invokeRedirect(for:invokeURL:origin:)``) instead of the page.
    /// - Throws: `server_error` only, for a database fault.
    func authorize(
        query: String?, sessionCookie: String?, secure: Bool, host: String? = nil, transferCookie: String? = nil
    )
        async throws(TenantError)
        -> BrowserResponse
    {
        let parameters = FormParameters(query)
        guard let clientID = parameters["client_id"], let client = services.application(clientID),
            !parameters.repeated.contains("client_id")
        else {
            return .page(
                .badRequest,
                HTMLPage.message(
                    title: "Unknown application",
                    text: "The client_id is missing or names no application of this tenant."))
        }
        let responseMode =
            parameters.repeated.contains("response_mode")
            ? nil : AuthorizationResponse.Mode(rawValue: parameters["response_mode"] ?? "query")
        guard let redirectURI = parameters["redirect_uri"], !parameters.repeated.contains("redirect_uri"),
            responseMode == .webMessage || client.allowsCallback(redirectURI)
        else {
            return .page(
                .badRequest,
                HTMLPage.message(
                    title: "Callback URL mismatch",
                    text: "The redirect_uri is missing or is not one of the application's Allowed Callback URLs."))
        }
        if responseMode == .webMessage, !(AllowedOrigin.of(redirectURI).map(client.allowsWebOrigin) ?? false) {
            return .page(
                .badRequest,
                HTMLPage.message(
                    title: "Web origin not allowed",
                    text: "The redirect_uri's origin is not one of the application's Allowed Web Origins, "
                        + "the only origins a response_mode=web_message answer is posted to."))
        }
        let state = parameters["state"]
        func refuse(_ error: String, _ description: String) -> BrowserResponse {
            AuthorizationResponse.error(
                error, description, state: state, redirectURI: redirectURI, mode: responseMode ?? .query
            ).browserResponse
        }
        guard let mode = responseMode else {
            return refuse(
                "invalid_request",
                parameters.repeated.contains("response_mode")
                    ? "Parameter response_mode is given more than once."
                    : "Unsupported response_mode: \(parameters["response_mode"]?.prefix(64) ?? "")")
        }
        if let name = parameters.repeated.first {
            return refuse("invalid_request", "Parameter \(name.prefix(64)) is given more than once.")
        }
        guard parameters["response_type"] == "code" else {
            return refuse("unsupported_response_type", "Only response_type=code is supported.")
        }
        // PKCE is required of a public client; a confidential one (a regular web app) may do
        // without, as on Auth0, since it authenticates when it redeems the code (RFC 7636 §1).
        let challenge = parameters["code_challenge"]
        if challenge == nil, !client.isConfidential {
            return refuse("invalid_request", "code_challenge is required (PKCE, S256).")
        }
        if challenge != nil || parameters["code_challenge_method"] != nil {
            guard parameters["code_challenge_method"] == "S256" else {
                return refuse("invalid_request", "code_challenge_method must be S256.")
            }
            guard let challenge, Self.isPKCEValue(challenge, length: 43...43, symbols: "-_") else {
                return refuse("invalid_request", "code_challenge must be 43 base64url characters.")
            }
        }
        var upstream: UpstreamIssuer?
        if let connection = parameters["connection"], connection != configuration.connection {
            guard let issuer = services.upstreams[connection] else {
                return refuse("invalid_request", "Connection not found: \(connection.prefix(64))")
            }
            upstream = issuer
        }
        if let audience = parameters["audience"], services.apiScopes(audience) == nil {
            return refuse("access_denied", "Service not found: \(audience.prefix(200))")
        }
        let organization: TenantOrganization?
        do {
            organization = try services.checkOrganization(parameters["organization"])
        } catch {
            return refuse(error.code.rawValue, error.detail)
        }
        var maxAge: Int?
        if let text = parameters["max_age"] {
            guard let value = Int(text), value >= 0 else {
                return refuse("invalid_request", "max_age must be a non-negative integer.")
            }
            maxAge = value
        }
        if let jkt = parameters["dpop_jkt"], !Self.isPKCEValue(jkt, length: 43...43, symbols: "-_") {
            return refuse("invalid_request", "dpop_jkt must be a JWK SHA-256 thumbprint, 43 base64url characters.")
        }
        let prompts = Set((parameters["prompt"] ?? "").split(separator: " ").map(String.init))
        if prompts.contains("none"), prompts.count > 1 {
            return refuse("invalid_request", "prompt=none cannot be combined with another value.")
        }
        var request = AuthorizationRequest(
            clientID: clientID, redirectURI: redirectURI, state: state, nonce: parameters["nonce"],
            scope: parameters["scope"], audience: parameters["audience"], organization: organization?.id,
            codeChallenge: challenge, prompt: parameters["prompt"], maxAge: maxAge,
            screenHint: parameters["screen_hint"], loginHint: parameters["login_hint"],
            autostart: parameters["ext-passkey-autostart"] == "true" ? true : nil, dpopJKT: parameters["dpop_jkt"],
            responseMode: mode == .query ? nil : mode)
        if let ticket = parameters["invitation"] {
            do {
                try await applyInvitation(ticket, to: &request, organization: organization)
            } catch  where error.code == .invalidRequest {
                return refuse("invalid_request", error.detail)
            }
        }
        var sessionCookie = sessionCookie
        if let transfer = parameters[SessionTransfer.parameter] ?? transferCookie {
            if let redeemed = try await redeemSessionTransfer(
                transfer, for: request, client: client, organization: organization, secure: secure)
            {
                return redeemed
            }
            sessionCookie = nil
        }
        let session = try await usableSession(sessionCookie, maxAge: maxAge)
        if let session, !prompts.contains("login"), !request.wantsSignup,
            let user = try await store.user(id: session.userID)
        {
            do {
                try await services.admit(user, to: organization)
            } catch  where error.code == .accessDenied {
                return refuse("access_denied", error.detail)
            }
            return try await issueCode(
                for: request, userID: session.userID, authTime: session.authTime, sessionID: session.sessionID
            ).browserResponse
        }
        if prompts.contains("none") {
            return refuse("login_required", "The user is not logged in.")
        }
        if let upstream {
            return try await startUpstreamLogin(
                request, at: upstream, origin: tenantOrigin(host: host, secure: secure, acceptedOnly: false),
                secure: secure)
        }
        if let invokeURL = client.invokeURL {
            return try await invokeRedirect(
                for: request, invokeURL: invokeURL, origin: tenantOrigin(host: host, secure: secure, acceptedOnly: true)
            )
        }
        return try await loginPage(for: request, links: upstreamLinks(query: query), secure: secure)
    }

    /// The live login session a `passkey_session` cookie names, if its user still exists and its
    /// ceremony is recent enough for `maxAge` (OpenID Connect Core 1.0 §3.1.2.1).
    private func usableSession(_ cookie: String?, maxAge: Int?) async throws(TenantError) -> LoginSession? {
        guard let cookie else { return nil }
        guard
            let session = try await store.peek(
                LoginSession.self, key: .digest(Secret(cookie).digest), at: clock.now(), expiring: true),
            try await store.user(id: session.userID) != nil
        else { return nil }
        // `max_age=0` asks for a new ceremony every time, as `prompt=login` does (OpenID Connect Core 1.0 §3.1.2.1).
        if let maxAge, maxAge == 0 || session.authTime.addingTimeInterval(Double(maxAge)) < clock.now() {
            return nil
        }
        return session
    }

    /// Opens a login page's transaction and renders the page, setting the `passkey_tx` cookie.
    private func loginPage(
        for request: AuthorizationRequest, links: [(name: String, href: String)], secure: Bool
    ) async throws(TenantError) -> BrowserResponse {
        let transaction = Secret.random()
        try await store.insert(
            LoginTransaction(
                request: request,
                expiresAt: clock.now().addingTimeInterval(configuration.loginTransactionLifetime.seconds)),
            key: .digest(transaction.digest))
        let html = HTMLPage.login(
            transaction: transaction.text, domain: configuration.domain, signupFirst: request.wantsSignup,
            loginHint: request.loginHint, autostart: request.autostart ?? false,
            emailOnly: configuration.identifiers.email.signup == .required, connections: links,
            passwords: configuration.databaseConnection.passwordsEnabled,
            captcha: configuration.databaseConnection.botDetection == .always)
        return .page(
            .ok, html,
            cookies: [BrowserResponse.cookie(Self.transactionCookie, transaction.text, path: "/u/", secure: secure)])
    }

    /// Issues an authorization code for `request` and `userID` (RFC 6749 §4.1.2): 32 random
    /// bytes, stored as their SHA-256 digest for ``TenantConfiguration/authorizationCodeLifetime``,
    /// with the login session's ID (`sessionID`, the ID token's `sid`).
    ///
    /// - Returns: the response with `code` and `state`.
    func issueCode(
        for request: AuthorizationRequest, userID: String, authTime: Date, sessionID: String?
    ) async throws(TenantError) -> AuthorizationResponse {
        let code = Secret.random()
        try await store.insert(
            IssuedCode(
                code: AuthorizationCode(
                    request: request, userID: userID, authTime: authTime,
                    expiresAt: clock.now().addingTimeInterval(configuration.authorizationCodeLifetime.seconds),
                    sessionID: sessionID),
                identifiers: .random()),
            key: .digest(code.digest))
        return request.response([("code", code.text)])
    }

    /// Whether `value` is a PKCE value: `length` ASCII letters, digits and `symbols`. A verifier
    /// is 43 to 128 of `[A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~"` (RFC 7636 §4.1); an
    /// `S256` challenge is a base64url SHA-256, 43 of `[A-Z] / [a-z] / [0-9] / "-" / "_"` (§4.2).
    static func isPKCEValue(_ value: String, length: ClosedRange<Int>, symbols: String) -> Bool {
        length.contains(value.utf8.count)
            && value.utf8.allSatisfy { byte in
                let character = Character(Unicode.Scalar(byte))
                return byte < 0x80 && (character.isLetter || character.isNumber || symbols.contains(character))
            }
    }

    /// The login page's transaction cookie (the double-submit cookie pattern).
    static let transactionCookie = "passkey_tx"
    /// The login session cookie.
    static let sessionCookie = "passkey_session"
}
