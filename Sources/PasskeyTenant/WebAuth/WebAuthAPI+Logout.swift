import HTTPTypes
import WebAuthn

extension WebAuthAPI {
    /// `GET /v2/logout` (auth0-passkey-api.md §14.4; OpenID Connect RP-Initiated Logout 1.0 §2,
    /// §3): ends the login session (its row deleted, its cookie cleared with `Max-Age=0`), then
    /// sends the browser to `returnTo` when it is an Allowed Logout URL (of the `client_id`'s
    /// application, else the default one's), to the first allowed one
    /// when only `client_id` is given, or shows "You are logged out". `federated` is ignored (the
    /// tenant has no upstream identity provider).
    ///
    /// - Parameters:
    ///   - query: the query string, without `?`.
    ///   - sessionCookie: the `passkey_session` cookie, if any.
    ///   - secure: whether the tenant serves TLS.
    /// - Returns: a 302, a 200 page, or a 400 page for a `returnTo` that is not allowed or an
    ///   unknown `client_id`.
    /// - Throws: `server_error` only, for a database fault.
    func logout(query: String?, sessionCookie: String?, secure: Bool) async throws(TenantError) -> BrowserResponse {
        let parameters = FormParameters(query)
        let returnTo = parameters["returnTo"]
        let clientID = parameters["client_id"]
        let client = clientID.flatMap(services.application)
        if let returnTo, !(client ?? services.defaultApplication).allowsLogout(returnTo) {
            return .page(
                .badRequest,
                HTMLPage.message(
                    title: "Logout URL mismatch",
                    text: "The returnTo URL is not one of the application's Allowed Logout URLs."))
        }
        if clientID != nil, client == nil {
            return .page(
                .badRequest,
                HTMLPage.message(
                    title: "Unknown application", text: "The client_id names no application of this tenant."))
        }
        let cleared = try await endLoginSession(sessionCookie, secure: secure)
        if let returnTo {
            return .redirect(returnTo, cookies: cleared)
        }
        if let first = client?.logoutURLs.first {
            return .redirect(first, cookies: cleared)
        }
        return Self.loggedOut(cookies: cleared)
    }

    /// Ends the login session `sessionCookie` names (its row deleted; nothing when there is none
    /// or it is gone already): what `/v2/logout` and `/oidc/logout` both do.
    ///
    /// - Returns: the `Set-Cookie` value that clears the cookie (`Max-Age=0`).
    /// - Throws: `server_error`, for a database fault.
    func endLoginSession(_ sessionCookie: String?, secure: Bool) async throws(TenantError) -> [String] {
        if let sessionCookie {
            try await store.delete(LoginSession.self, key: .digest(Secret(sessionCookie).digest))
        }
        return [BrowserResponse.cookie(Self.sessionCookie, "", path: "/", secure: secure, crossSite: true, maxAge: 0)]
    }

    /// The page of a logout with nowhere to go back to.
    static func loggedOut(cookies: [String]) -> BrowserResponse {
        .page(.ok, HTMLPage.message(title: "Logged out", text: "You are logged out."), cookies: cookies)
    }
}
