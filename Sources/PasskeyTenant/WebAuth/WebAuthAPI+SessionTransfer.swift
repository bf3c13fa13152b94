import FoundationEssentials
import WebAuthn

extension WebAuthAPI {
    /// Redeems a session transfer token at `/authorize` (Auth0's Native to Web SSO): the token's
    /// user gets a web session without a login, opened the one way every web login opens one
    /// (``openSession(userID:authTime:request:refusal:secure:)``), and the authorization request
    /// is answered with a code.
    ///
    /// The token comes as the `session_transfer_token` parameter or the
    /// `auth0_session_transfer_token` cookie (Auth0's `allowed_authentication_methods`, `query` and
    /// `cookie`; **[local]** both are accepted by every web application). It is taken once, live,
    /// whatever comes of it. As on Auth0, a token that does not hold is no error: the user is asked
    /// to log in, and a live login session of the browser is not used (Auth0 revokes it).
    ///
    /// **[local]** Only a web application (single-page or regular web) redeems a token, created by
    /// any native application of the tenant; a native or machine-to-machine `client_id` is refused
    /// and the token left untouched. Auth0 binds the token to the device's IP or ASN when the
    /// application asks (`enforce_device_binding`); the local tenant does not.
    ///
    /// - Parameters:
    ///   - token: the token.
    ///   - request: the checked authorization request.
    ///   - client: the application of the request.
    ///   - organization: the request's organization, if any: the user must be let in through it.
    ///   - secure: whether the tenant serves TLS.
    /// - Returns: the code answer with the session cookie; nil when the token does not hold.
    /// - Throws: `server_error` only, for a database fault.
    func redeemSessionTransfer(
        _ token: String, for request: AuthorizationRequest, client: RegisteredApplication,
        organization: TenantOrganization?, secure: Bool
    ) async throws(TenantError) -> BrowserResponse? {
        guard client.appType == .spa || client.appType == .regularWeb, !token.isEmpty else { return nil }
        guard
            let transfer = try await store.take(
                SessionTransfer.self, key: .digest(Secret(token).digest), at: clock.now()),
            let user = try await store.user(id: transfer.userID)
        else { return nil }
        if organization != nil || transfer.organization != nil {
            guard organization?.id == transfer.organization else { return nil }
            do {
                try await services.admit(user, to: organization)
            } catch  where error.code == .accessDenied {
                return nil
            }
        }
        let (answer, cookie) = try await openSession(
            userID: user.id, authTime: transfer.authTime ?? clock.now(), request: request, refusal: nil, secure: secure)
        var response = answer.browserResponse
        response.cookies += [
            cookie, BrowserResponse.cookie(SessionTransfer.cookie, "", path: "/", secure: secure, maxAge: 0),
        ]
        return response
    }
}
