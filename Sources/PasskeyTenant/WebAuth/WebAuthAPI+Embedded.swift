import FoundationEssentials
import HTTPTypes
import WebAuthn

/// The tenant as a passkey identity provider in the embedded mode **[local]**, after Beyond
/// Identity's "Invoke URL" flow: for a client with an invoke URL (``TenantApplication/invokeURL``),
/// `GET /authorize` sends the browser to the app instead of the login page, the app's embedded
/// SDK logs in with a passkey at the authenticate URL it is handed, and the browser resumes the
/// authorization at the continue URL it is answered.
///
/// ```
/// GET  /authorize?client_id=…              302 INVOKE_URL?url=<ORIGIN/embedded/authenticate?request=R>
/// GET  /embedded/authenticate?request=R    200 {"publicKey": PublicKeyCredentialRequestOptionsJSON}
/// POST /embedded/authenticate?request=R    {"credential": AuthenticationResponseJSON}
///                                          200 {"redirectUrl": "ORIGIN/embedded/continue?request=C"}
/// POST /embedded/authenticate?request=R    {"error": "access_denied"}
///                                          200 {"redirectUrl": "REDIRECT_URI?error=access_denied&…&state=…"}
/// GET  /embedded/continue?request=C        passkey_session cookie + the authorization response
/// ```
///
/// `R` and `C` are 32 random bytes, base64url, stored as their SHA-256 digests (``LoginTransaction``
/// of kind `embedded` and `continuation`): `R` lives as a login page's transaction does, `C` two
/// minutes and once. No cookie and no `Origin` check: the secret is the capability, and the SDK
/// is not the browser. `ORIGIN` is where the browser reached the tenant when that is an origin its
/// login page accepts (``PageOrigin``), else the issuer's.
extension WebAuthAPI {
    /// How long a continue URL may be opened: two minutes.
    static let continuationLifetime: Duration = .seconds(120)

    /// `GET /authorize`'s answer for a client with an invoke URL, after every check: opens an
    /// authenticate request for `request` and sends the browser to the invoke URL with the
    /// authenticate URL in `url` (`&url=` when the invoke URL has a query).
    ///
    /// - Parameters:
    ///   - request: the checked `/authorize` request.
    ///   - invokeURL: the client's invoke URL.
    ///   - origin: the tenant's origin as the browser reached it.
    /// - Returns: the 302.
    func invokeRedirect(for request: AuthorizationRequest, invokeURL: String, origin: String)
        async throws(TenantError) -> BrowserResponse
    {
        let secret = Secret.random()
        try await store.insert(
            LoginTransaction(
                request: request,
                expiresAt: clock.now().addingTimeInterval(configuration.loginTransactionLifetime.seconds),
                kind: .embedded),
            key: .digest(secret.digest))
        let authenticate = origin + "/embedded/authenticate?request=" + secret.text
        return .redirect(
            invokeURL + (invokeURL.contains("?") ? "&" : "?") + "url=" + PercentEncoding.encode(authenticate))
    }

    /// `GET /embedded/authenticate?request=R`: the options of a discoverable login (WebAuthn L3
    /// §5.1.10), a fresh challenge replacing the pending one.
    ///
    /// - Parameter query: the query string, without `?`.
    /// - Returns: the options.
    /// - Throws: `invalid_request` for a missing, malformed, unknown or expired `request`.
    func embeddedOptions(query: String?) async throws(TenantError) -> EmbeddedOptionsResponse {
        let digest = try Self.requestSecret(query).digest
        var transaction = try await liveTransaction(digest, kind: .embedded)
        let options = pendLogin(&transaction)
        try await storePending(transaction, digest: digest)
        return EmbeddedOptionsResponse(publicKey: options)
    }

    /// `POST /embedded/authenticate?request=R`: verifies the assertion against the pending
    /// challenge (spent by the first answer, good or bad; a failure leaves the request for another
    /// `GET`) with the tenant's relying party (``TenantServices/verifiedLogin(_:challenge:relyingParty:)``:
    /// the origins it accepts, `https://<rpId>` first), or takes the user's refusal.
    ///
    /// A verified login ends the request and answers a continue URL. A refusal — the user's
    /// `access_denied`, or a user the request's organization does not let in (auth0-passkey-api.md
    /// §17) — ends it too, with no login session, and answers the client's redirect URI with
    /// `error=access_denied` (RFC 6749 §4.1.2.1); in the `form_post` and `web_message` modes,
    /// which answer with a page, a continue URL that renders it.
    ///
    /// - Parameters:
    ///   - query: the query string, without `?`.
    ///   - body: the assertion or the refusal.
    ///   - origin: the tenant's origin as the caller reached it, for the continue URL.
    /// - Returns: where the browser goes next.
    /// - Throws: `invalid_request` for a bad `request` as ``embeddedOptions(query:)``, a body that
    ///   is neither an assertion nor `access_denied`, or no pending challenge; `invalid_grant` for
    ///   an assertion that does not verify; `too_many_attempts` for a locked-out user.
    func embeddedAuthenticate(query: String?, _ body: EmbeddedAuthenticateRequest, origin: String)
        async throws(TenantError) -> EmbeddedAuthenticateResponse
    {
        let digest = try Self.requestSecret(query).digest
        switch (body.credential, body.error) {
        case (nil, "access_denied"?):
            let transaction = try await liveTransaction(digest, kind: .embedded)
            try await store.delete(LoginTransaction.self, key: .digest(digest))
            return try await refuse(transaction.request, "The user cancelled the passkey login.", origin: origin)
        case (let credential?, nil):
            let (transaction, _, challenge) = try await takeCeremony(digest, kind: .embedded)
            let user = try await services.verifiedLogin(
                credential, challenge: challenge, relyingParty: configuration.relyingParty)
            try await store.delete(LoginTransaction.self, key: .digest(digest))
            do {
                try await services.admit(user, to: try services.issuedOrganization(transaction.request.organization))
            } catch  where error.code == .accessDenied {
                return try await refuse(transaction.request, error.detail, origin: origin)
            }
            var continuation = Self.continuation(of: transaction.request, at: clock.now())
            (continuation.user, continuation.authTime) = (user, clock.now())
            return try await continueURL(continuation, origin: origin)
        default:
            throw .invalidRequest(#"The body is {"credential": …} or {"error": "access_denied"}."#)
        }
    }

    /// `GET /embedded/continue?request=C`, once: opens the login session of the verified
    /// ceremony (the `passkey_session` cookie, as the login page's verify does) and answers the
    /// client's authorization (``AuthorizationResponse``: `code` and `state` in the request's
    /// `response_mode`), or renders the refusal kept for it.
    ///
    /// - Parameters:
    ///   - query: the query string, without `?`.
    ///   - secure: whether the tenant serves TLS (the cookie's `Secure`).
    /// - Returns: the authorization response, or a 400 page for a missing, unknown, expired or
    ///   spent `request`.
    func embeddedContinue(query: String?, secure: Bool) async throws(TenantError) -> BrowserResponse {
        guard let secret = try? Self.requestSecret(query),
            let transaction = try await store.take(LoginTransaction.self, key: .digest(secret.digest), at: clock.now()),
            transaction.kind == .continuation
        else {
            return Self.nothingToContinue
        }
        if let user = transaction.user, let authTime = transaction.authTime {
            let (response, cookie) = try await openSession(
                userID: user.id, authTime: authTime, request: transaction.request, refusal: nil, secure: secure)
            var answer = response.browserResponse
            answer.cookies.append(cookie)
            return answer
        }
        return transaction.response?.browserResponse ?? Self.nothingToContinue
    }

    /// The 400 page of a continue URL that leads nowhere.
    private static let nothingToContinue = BrowserResponse.page(
        .badRequest,
        HTMLPage.message(
            title: "Nothing to continue",
            text: "This login link is unknown, expired or used; start again from the application."))

    /// Where the browser reached the tenant: `<scheme>://<Host>` as ``PageOrigin`` reads the `Host`
    /// header, for the URLs the tenant sends the browser back to itself with.
    ///
    /// The embedded mode's authenticate URL is run at this origin, so it must be one the login
    /// page's ceremonies are accepted from (`acceptedOnly`), else the issuer's origin. An upstream
    /// connection's `redirect_uri` only has to lead this browser back here, where its
    /// `passkey_upstream` cookie is, so any host does, else the configured domain over the scheme
    /// served.
    ///
    /// - Parameters:
    ///   - host: the request's `Host` (or `:authority`).
    ///   - secure: whether the tenant serves TLS.
    ///   - acceptedOnly: whether the origin must be one ceremonies are accepted from.
    /// - Returns: the serialized origin, without a trailing `/`.
    func tenantOrigin(host: String?, secure: Bool, acceptedOnly: Bool) -> String {
        if let page = PageOrigin(host: host, secure: secure, relyingPartyID: configuration.relyingPartyID),
            page.isAccepted || !acceptedOnly
        {
            return page.text
        }
        return acceptedOnly
            ? String(configuration.issuer.dropLast()) : "\(secure ? "https" : "http")://\(configuration.domain)"
    }

    /// The `request` secret of an embedded URL's query: given once, at most 64 characters.
    ///
    /// - Throws: `invalid_request` otherwise.
    static func requestSecret(_ query: String?) throws(TenantError) -> Secret {
        let parameters = FormParameters(query)
        guard let value = parameters["request"], !parameters.repeated.contains("request"), value.utf8.count <= 64
        else {
            throw .invalidRequest("The request parameter is missing, repeated or malformed.")
        }
        return Secret(value)
    }

    /// The answer that sends the browser back to the client with `access_denied` and `description`:
    /// the redirect URI in the `query` and `fragment` modes, else a continue URL that renders it.
    private func refuse(_ request: AuthorizationRequest, _ description: String, origin: String)
        async throws(TenantError) -> EmbeddedAuthenticateResponse
    {
        let response = request.response([("error", "access_denied"), ("error_description", description)])
        if let location = response.location {
            return EmbeddedAuthenticateResponse(redirectUrl: Secret(location))
        }
        var continuation = Self.continuation(of: request, at: clock.now())
        continuation.response = response
        return try await continueURL(continuation, origin: origin)
    }

    /// Stores `continuation` under a new secret: its continue URL.
    private func continueURL(_ continuation: LoginTransaction, origin: String) async throws(TenantError)
        -> EmbeddedAuthenticateResponse
    {
        let secret = Secret.random()
        try await store.insert(continuation, key: .digest(secret.digest))
        return EmbeddedAuthenticateResponse(redirectUrl: Secret(origin + "/embedded/continue?request=" + secret.text))
    }

    /// An empty continuation of `request`, living ``continuationLifetime`` from `now`.
    private static func continuation(of request: AuthorizationRequest, at now: Date) -> LoginTransaction {
        LoginTransaction(
            request: request, expiresAt: now.addingTimeInterval(continuationLifetime.seconds), kind: .continuation)
    }
}
