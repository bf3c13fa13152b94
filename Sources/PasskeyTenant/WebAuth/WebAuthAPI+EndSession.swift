import HTTPTypes
import Hummingbird
import JSONBodies

extension WebAuthAPI {
    /// Adds `GET` and `POST /oidc/logout`, the discovery document's `end_session_endpoint`
    /// (OpenID Connect RP-Initiated Logout 1.0 §2: "The OP MUST support the use of the HTTP GET
    /// and POST methods"); a POST carries the parameters as an
    /// `application/x-www-form-urlencoded` body.
    ///
    /// A POST from the application's site is cross-site: the `SameSite=Lax` session cookie does not
    /// come with it, so it can end no session the browser holds; a GET, a top-level navigation,
    /// carries it. **[local]**
    func addEndSessionRoutes(to router: Router<TenantRequestContext>, secure: Bool, sources: [String]) {
        router.get("oidc/logout") { request, _ in
            try await self.endSession(
                FormParameters(request.uri.query), sessionCookie: request.cookies[Self.sessionCookie]?.value,
                secure: secure
            ).response(connectSources: sources)
        }
        router.post("oidc/logout") { request, context in
            guard JSONRequestDecoder.mediaType(of: request) == "application/x-www-form-urlencoded" else {
                throw TenantError(
                    .unsupportedMediaType, status: 415, "The body must be application/x-www-form-urlencoded.")
            }
            let body = try await JSONRequestDecoder.tenant.bytes(of: request, limit: context.maxUploadSize)
            return try await self.endSession(
                FormParameters(String(decoding: body, as: UTF8.self)),
                sessionCookie: request.cookies[Self.sessionCookie]?.value, secure: secure
            ).response(connectSources: sources)
        }
    }

    /// `/oidc/logout` (OpenID Connect RP-Initiated Logout 1.0 §2, §3; Auth0's OIDC logout
    /// endpoint): ends the login session as `/v2/logout` does (``endLoginSession(_:secure:)``),
    /// then sends the browser to `post_logout_redirect_uri` with `state`, or shows "You are logged
    /// out".
    ///
    /// The checks, in order, each refused with a 400 page and the session left as it is:
    /// a repeated parameter; an `id_token_hint` that is not an ID token this tenant signed (its
    /// signature and `iss`; an expired one is still a hint, §2: the OP need not check `exp` of a
    /// token it issued); a `client_id` that is not the hint's audience (§2: "the OP MUST verify
    /// that it was the same OP that issued the ID Token" and that the Client Identifier matches);
    /// a `client_id` of no application; a `post_logout_redirect_uri` when neither `client_id`
    /// nor the hint's `aud` names the application, or that is not one of that application's
    /// Allowed Logout URLs (§3: "the OP MUST NOT perform post-logout redirection" to an
    /// unregistered URI). `logout_hint` and `ui_locales` are ignored (§2: optional to honour).
    ///
    /// - Parameters:
    ///   - parameters: the query of a GET, the form of a POST.
    ///   - sessionCookie: the `passkey_session` cookie, if any.
    ///   - secure: whether the tenant serves TLS.
    /// - Returns: a 302 to the post-logout redirect URI, a 200 page, or a 400 page.
    /// - Throws: `server_error` only, for a database fault.
    func endSession(_ parameters: FormParameters, sessionCookie: String?, secure: Bool) async throws(TenantError)
        -> BrowserResponse
    {
        func refuse(_ title: String, _ text: String) -> BrowserResponse {
            .page(.badRequest, HTMLPage.message(title: title, text: text))
        }
        if let name = parameters.repeated.first {
            return refuse("Invalid request", "Parameter \(name.prefix(64)) is given more than once.")
        }
        var hintedClient: String?
        if let hint = parameters["id_token_hint"] {
            guard let claims = await services.signer.verify(hint, as: IDTokenClaims.self),
                claims.iss == configuration.issuer, let audience = claims.aud.values.first
            else {
                return refuse("Invalid ID token hint", "The id_token_hint is not an ID token this tenant issued.")
            }
            if let clientID = parameters["client_id"], !claims.aud.values.contains(clientID) {
                return refuse("Invalid ID token hint", "The id_token_hint was issued to another application.")
            }
            hintedClient = audience
        }
        let clientID = parameters["client_id"] ?? hintedClient
        let client = clientID.flatMap(services.application)
        if clientID != nil, client == nil {
            return refuse("Unknown application", "The client_id names no application of this tenant.")
        }
        let redirectURI = parameters["post_logout_redirect_uri"]
        if let redirectURI {
            guard let client else {
                return refuse(
                    "Unknown application",
                    "A post_logout_redirect_uri needs a client_id or an id_token_hint naming the application.")
            }
            guard client.allowsLogout(redirectURI) else {
                return refuse(
                    "Logout URL mismatch",
                    "The post_logout_redirect_uri is not one of the application's Allowed Logout URLs.")
            }
        }
        let cleared = try await endLoginSession(sessionCookie, secure: secure)
        guard let redirectURI else { return Self.loggedOut(cookies: cleared) }
        // `state` goes back in the query, as an authorization response's does (RP-Initiated Logout 1.0 §3).
        let location =
            parameters["state"].flatMap {
                AuthorizationResponse(redirectURI: redirectURI, mode: .query, [("state", $0)]).location
            } ?? redirectURI
        return .redirect(location, cookies: cleared)
    }
}
