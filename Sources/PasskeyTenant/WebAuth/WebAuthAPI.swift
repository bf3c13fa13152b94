import HTTPTypes
import Hummingbird
import NIOCore

/// Web Auth (auth0-passkey-api.md §14): `/authorize` with the server-rendered passkey login page,
/// the page's API, the embedded mode's API, `/v2/logout` and `/oidc/logout`.
struct WebAuthAPI: TenantRoutes {
    let services: TenantServices
}

extension WebAuthAPI {
    /// Web Auth's routes (auth0-passkey-api.md §14; the page API and the embedded mode are **[local]**):
    ///
    /// ```
    /// GET  /authorize            the login page, a code redirect, an upstream or invoke URL redirect, or an error
    /// GET  /login/callback       an upstream connection's answer → the application's (POST: form_post)
    /// GET  /v2/logout            ends the login session
    /// GET  /oidc/logout          ends it, RP-Initiated Logout (POST with a form too)
    /// GET  /u/passkey.js         the page's one script
    /// GET  /u/passkey.css        the page's stylesheet
    /// POST /u/passkey/options    the next ceremony's options       (under the address lockout)
    /// POST /u/passkey/verify     the ceremony's answer → code      (under the address lockout)
    /// POST /u/passkey/password   a password login or signup → code (under the address lockout)
    /// POST /u/passkey/cancel     back to the application with access_denied (under the address lockout)
    /// GET  /u/passkey/response   the form_post / web_message page of the verified ceremony
    /// GET  /embedded/authenticate   the embedded ceremony's options          (under the address lockout)
    /// POST /embedded/authenticate   its answer → a continue URL             (under the address lockout)
    /// GET  /embedded/continue       the login session and the authorization response
    /// ```
    func addRoutes(to router: Router<TenantRequestContext>, secure: Bool) {
        let limited = limited(router)
        let sources = configuration.pageConnectSources
        router.get("authorize") { request, _ in
            if let localhost = self.localhostURL(request, secure: secure) {
                return BrowserResponse.redirect(localhost).response(connectSources: sources)
            }
            return try await self.authorize(
                query: request.uri.query, sessionCookie: request.cookies[Self.sessionCookie]?.value, secure: secure,
                host: request.headers[.host] ?? request.head.authority,
                transferCookie: request.cookies[SessionTransfer.cookie]?.value
            ).response(connectSources: sources)
        }
        for method in [HTTPRequest.Method.get, .post] {
            router.on("login/callback", method: method) { request, _ in
                // A form_post answer is the form body, read as a query; a larger one than a query may be is refused.
                var parameters = request.uri.query
                if method == .post {
                    guard let body = try? await request.body.collect(upTo: Self.maxCallbackSize) else {
                        return Self.callbackTooLarge.response(connectSources: sources)
                    }
                    parameters = String(buffer: body)
                }
                return try await self.loginCallback(
                    query: parameters, upstreamCookie: request.cookies[Self.upstreamCookie]?.value, secure: secure
                ).response(connectSources: sources)
            }
        }
        router.get("v2/logout") { request, _ in
            try await self.logout(
                query: request.uri.query, sessionCookie: request.cookies[Self.sessionCookie]?.value, secure: secure
            ).response(connectSources: sources)
        }
        router.get("u/passkey/response") { request, _ in
            try await self.pageResponse(transactionCookie: request.cookies[Self.transactionCookie]?.value)
                .response(connectSources: sources)
        }
        addEndSessionRoutes(to: router, secure: secure, sources: sources)
        router.get("u/passkey.js") { _, _ in
            Self.asset(PackageResources.passkey_js, type: "text/javascript; charset=utf-8", sources: sources)
        }
        router.get("u/passkey.css") { _, _ in
            Self.asset(PackageResources.passkey_css, type: "text/css; charset=utf-8", sources: sources)
        }
        limited.post("u/passkey/options") { request, context in
            let body = try await request.decode(as: PageOptionsRequest.self, context: context)
            return try await self.pageOptions(body, caller: self.pageCaller(request, secure: secure))
        }
        limited.post("u/passkey/verify") { request, context in
            let body = try await request.decode(as: PageVerifyRequest.self, context: context)
            let (answer, cookie) = try await self.pageVerify(body, caller: self.pageCaller(request, secure: secure))
            return EditedResponse(headers: [.setCookie: cookie], response: answer)
        }
        limited.post("u/passkey/password") { request, context in
            let body = try await request.decode(as: PagePasswordRequest.self, context: context)
            let (answer, cookie) = try await self.pagePassword(body, caller: self.pageCaller(request, secure: secure))
            return EditedResponse(headers: [.setCookie: cookie], response: answer)
        }
        limited.post("u/passkey/cancel") { request, context in
            let body = try await request.decode(as: PageCancelRequest.self, context: context)
            return try await self.pageCancel(body, caller: self.pageCaller(request, secure: secure))
        }
        addEmbeddedRoutes(to: router, limited: limited, secure: secure, sources: sources)
    }

    /// The embedded mode's routes (``embeddedOptions(query:)``): every bad body, whatever the
    /// decoder calls it (too large, not JSON), is `invalid_request`, as the contract says.
    private func addEmbeddedRoutes(
        to router: Router<TenantRequestContext>, limited: RouterGroup<TenantRequestContext>, secure: Bool,
        sources: [String]
    ) {
        limited.get("embedded/authenticate") { request, _ in
            try await self.embeddedOptions(query: request.uri.query)
        }
        limited.post("embedded/authenticate") { request, context in
            let body: EmbeddedAuthenticateRequest
            do {
                body = try await request.decode(as: EmbeddedAuthenticateRequest.self, context: context)
            } catch let error as TenantError {
                throw TenantError.invalidRequest(error.detail)
            }
            return try await self.embeddedAuthenticate(
                query: request.uri.query, body,
                origin: self.tenantOrigin(
                    host: request.headers[.host] ?? request.head.authority, secure: secure, acceptedOnly: true))
        }
        router.get("embedded/continue") { request, _ in
            try await self.embeddedContinue(query: request.uri.query, secure: secure).response(connectSources: sources)
        }
    }

    /// The CSRF-relevant facts of a page API request. The page's host is the `Host` header (HTTP/1)
    /// or the `:authority` (HTTP/2, and what an HTTP/1 server turns `Host` into).
    private func pageCaller(_ request: Request, secure: Bool) -> PageCaller {
        PageCaller(
            transactionCookie: request.cookies[Self.transactionCookie]?.value, origin: request.headers[.origin],
            page: PageOrigin(
                host: request.headers[.host] ?? request.head.authority, secure: secure,
                relyingPartyID: configuration.relyingPartyID),
            userAgent: request.headers[.userAgent], secure: secure)
    }

    /// The same URL on `localhost` when the page was reached at a loopback address and the RP ID
    /// is `localhost` **[local]**: a browser refuses the RP ID `localhost` from `127.0.0.1`
    /// (WebAuthn L3 §5.1.3 step 8), and `passkey tenant serve` prints its URL on `127.0.0.1`.
    private func localhostURL(_ request: Request, secure: Bool) -> String? {
        guard configuration.relyingPartyID == "localhost",
            let host = request.headers[.host] ?? request.head.authority
        else { return nil }
        let name = host.hasPrefix("[") ? String(host.prefix { $0 != "]" }) + "]" : String(host.prefix { $0 != ":" })
        guard name != "localhost", RegisteredURL.isLoopback(name) else { return nil }
        let port = host.dropFirst(name.count)
        return "\(secure ? "https" : "http")://localhost\(port)\(request.uri.string)"
    }

    /// One of the page's embedded files, with the page's security headers.
    private static func asset(_ bytes: [UInt8], type: String, sources: [String]) -> Response {
        var headers = BrowserResponse.securityHeaders(connectSources: sources)
        headers[.contentType] = type
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
