import FoundationEssentials
import HTTPTypes
import WebAuthn

extension WebAuthAPI {
    /// Sends the browser to an upstream connection's issuer (OpenID Connect Core 1.0 §3.1.2.1,
    /// RFC 7636 §4.3): `response_type=code`, the connection's `client_id` and `scope`, the
    /// tenant's `/login/callback` as `redirect_uri`, a fresh `state` and `nonce`, and the S256
    /// challenge of a fresh PKCE verifier. What the callback needs is kept as an
    /// ``UpstreamRequest`` under the digest of the `state`, and the `passkey_upstream` cookie
    /// (`Path=/login/callback`, `SameSite=Lax`) binds the state to this browser (RFC 6749 §10.12).
    ///
    /// - Parameters:
    ///   - request: the application's checked `/authorize` request.
    ///   - issuer: the connection.
    ///   - origin: the tenant's origin as the browser reaches it.
    ///   - secure: whether the tenant serves TLS.
    /// - Returns: the redirect upstream, or the application's error redirect with
    ///   `temporarily_unavailable` when the issuer's metadata cannot be had.
    func startUpstreamLogin(
        _ request: AuthorizationRequest, at issuer: UpstreamIssuer, origin: String, secure: Bool
    ) async throws(TenantError) -> BrowserResponse {
        let metadata: UpstreamIssuer.Metadata
        do {
            metadata = try await issuer.discovered()
        } catch {
            return request.response([("error", error.error), ("error_description", error.description)]).browserResponse
        }
        let connection = issuer.connection
        let (state, nonce, verifier) = (Secret.random(), Secret.random(), Secret.random())
        let redirectURI = origin + "/login/callback"
        let now = clock.now()
        try await store.insert(
            UpstreamRequest(
                connection: connection.name, request: request, codeVerifier: verifier.text, nonce: nonce.text,
                redirectURI: redirectURI,
                expiresAt: now.addingTimeInterval(configuration.loginTransactionLifetime.seconds)),
            key: .digest(state.digest), expiring: now)
        let parameters = [
            ("response_type", "code"), ("client_id", connection.clientID), ("redirect_uri", redirectURI),
            ("scope", connection.scope), ("state", state.text), ("nonce", nonce.text),
            ("code_challenge", Base64URL.encode(SHA256Digest.hash(Array(verifier.text.utf8)))),
            ("code_challenge_method", "S256"),
        ]
        let query = parameters.map { "\($0)=\(PercentEncoding.encode($1))" }.joined(separator: "&")
        let endpoint = metadata.authorizationEndpoint
        return .redirect(
            endpoint + (endpoint.contains("?") ? "&" : "?") + query,
            cookies: [BrowserResponse.cookie(Self.upstreamCookie, state.text, path: "/login/callback", secure: secure)])
    }

    /// `GET /login/callback` (and `POST`, `response_mode=form_post`): an upstream connection's
    /// authorization response (RFC 6749 §4.1.2), which finishes the application's `/authorize`.
    ///
    /// In order: the query is at most 8 KiB; its one `state` names a live ``UpstreamRequest``,
    /// taken once (else a 400 page: there is no application to answer); the `passkey_upstream`
    /// cookie equals the state; the upstream answered a `code`, not an `error`; the code is
    /// exchanged with client authentication and the PKCE verifier, and the ID token validated
    /// (``UpstreamIssuer/login(code:request:)``). Then the user `oidc|NAME|SUB` is found or created
    /// with the profile of the token's claims (``TenantStore/federatedUser(_:)``), admitted to
    /// the request's organization, and a login session opened: the application gets its code, as
    /// after the login page. Every failure after the state is found goes to the application's
    /// redirect URI, in its `response_mode`, with `error` (`access_denied`, `temporarily_unavailable`
    /// when the issuer cannot be reached) and an `error_description` naming the connection; no
    /// user is made before the ID token is valid. The cookie is deleted on every answer.
    ///
    /// - Parameters:
    ///   - query: the query string (or the form body), without `?`.
    ///   - upstreamCookie: the `passkey_upstream` cookie, if any.
    ///   - secure: whether the tenant serves TLS.
    /// - Returns: the application's authorization response, or a 400 page.
    /// - Throws: `server_error` only, for a database fault.
    func loginCallback(query: String?, upstreamCookie: String?, secure: Bool) async throws(TenantError)
        -> BrowserResponse
    {
        let deletion = BrowserResponse.cookie(
            Self.upstreamCookie, "", path: "/login/callback", secure: secure, maxAge: 0)
        func page(_ title: String, _ text: String) -> BrowserResponse {
            .page(.badRequest, HTMLPage.message(title: title, text: text), cookies: [deletion])
        }
        guard (query?.utf8.count ?? 0) <= Self.maxCallbackSize else {
            var tooLarge = Self.callbackTooLarge
            tooLarge.cookies = [deletion]
            return tooLarge
        }
        let parameters = FormParameters(query)
        guard let state = parameters["state"], !parameters.repeated.contains("state"),
            (1...512).contains(state.utf8.count)
        else {
            return page("Missing state", "The callback carries no single state; start again from the application.")
        }
        let digest = Secret(state).digest
        guard let upstream = try await store.take(UpstreamRequest.self, key: .digest(digest), at: clock.now()) else {
            return page(
                "Unknown login", "The login's state is unknown, expired or used; start again from the application.")
        }
        let request = upstream.request
        let name = upstream.connection
        func refuse(_ error: String, _ description: String) -> BrowserResponse {
            var response = request.response([("error", error), ("error_description", description)]).browserResponse
            response.cookies.append(deletion)
            return response
        }
        guard let cookie = upstreamCookie, Secret(cookie).digest == digest else {
            return refuse(
                "access_denied",
                "The login's cookie is missing or differs: the answer did not come to the browser that began it.")
        }
        guard let issuer = services.upstreams[name] else {
            return refuse("access_denied", "The connection \(name) is no longer configured.")
        }
        if let error = parameters["error"] {
            let detail = parameters["error_description"].map { ": \($0.prefix(200))" } ?? ""
            return refuse("access_denied", "The connection \(name) refused the login (\(error.prefix(64)))\(detail)")
        }
        guard let code = parameters["code"], !parameters.repeated.contains("code"), (1...1024).contains(code.utf8.count)
        else {
            return refuse("access_denied", "The connection \(name) answered with neither one code nor an error.")
        }
        let login: UpstreamIssuer.Login
        do {
            login = try await issuer.login(code: code, request: upstream)
        } catch {
            return refuse(error.error, error.description)
        }
        guard login.subject.utf8.count <= 255 else {
            return refuse("access_denied", "The connection \(name)'s ID token has a sub over 255 bytes.")
        }
        let now = clock.now()
        var new = TenantUser.new(profile: login.claims.upstreamProfile, metadata: [:], at: now)
        new.id = UserIdentity.federatedUserID(connection: name, subject: login.subject)
        new.emailVerified = login.claims.emailVerified == true ? true : nil
        new.identity = UserIdentity(provider: "oidc", connection: name, userID: login.subject)
        let user = try await store.federatedUser(new)
        do {
            try await services.admit(user, to: try services.issuedOrganization(request.organization))
        } catch  where error.code == .accessDenied {
            return refuse("access_denied", error.detail)
        }
        let (answer, sessionCookie) = try await openSession(
            userID: user.id, authTime: now, request: request, refusal: nil, secure: secure)
        var response = answer.browserResponse
        response.cookies += [sessionCookie, deletion]
        return response
    }

    /// The links of the login page's "Continue with NAME": this `/authorize` query with each
    /// upstream connection's `connection` instead of its own.
    ///
    /// - Parameter query: the `/authorize` query string.
    /// - Returns: each connection's name and link, in the configuration's order.
    func upstreamLinks(query: String?) -> [(name: String, href: String)] {
        let kept = (query ?? "").split(separator: "&").filter { !$0.hasPrefix("connection=") }.joined(separator: "&")
        return configuration.connections.map { connection in
            (connection.name, "/authorize?" + kept + "&connection=" + PercentEncoding.encode(connection.name))
        }
    }

    /// The cookie binding an upstream login's `state` to the browser.
    static let upstreamCookie = "passkey_upstream"
    /// The largest callback query or form body read.
    static let maxCallbackSize = 8 * 1024
    /// The answer to a callback past ``maxCallbackSize``.
    static let callbackTooLarge = BrowserResponse.page(
        .badRequest, HTMLPage.message(title: "Request too large", text: "The callback's parameters are too large."))
}
