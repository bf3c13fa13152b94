import FoundationEssentials
import HTTPTypes
import WebAuthn

extension PasswordlessAPI {
    /// `GET /passwordless/verify_redirect`: a magic link opened (Auth0's link flow: the link's
    /// `verification_code` is checked, then the browser goes to the application's redirect URI as
    /// after `/authorize`).
    ///
    /// The link carries `client_id`, `connection`, `email` and `verification_code`; **[local]** the
    /// authorization parameters are the ones `/passwordless/start` checked and kept with the code
    /// (its `authParams`), not the link's, so a link cannot be edited into another redirect. A
    /// link that names no live code gets a 400 page (no application to trust); a wrong or used
    /// code, or one void after ``PasswordlessCode/maximumWrongTries`` wrong tries, goes to the
    /// application with `error=access_denied` and Auth0's `error_description`. An accepted code
    /// finds or creates the user (``TenantServices/passwordlessUser(_:address:)``), opens a login
    /// session (``WebAuthAPI/openSession(userID:authTime:request:refusal:secure:)``, the cookie
    /// set) and answers with an authorization code, which the application redeems at
    /// `/oauth/token` as any other.
    ///
    /// - Parameters:
    ///   - query: the query string, without `?`.
    ///   - secure: whether the tenant serves TLS (the cookie's `Secure`).
    /// - Returns: the redirect, or a 400 page.
    /// - Throws: `server_error` only, for a database fault.
    func verifyRedirect(query: String?, secure: Bool) async throws(TenantError) -> BrowserResponse {
        let parameters = FormParameters(query)
        let invalid = BrowserResponse.page(
            .badRequest,
            HTMLPage.message(
                title: "Invalid link",
                text:
                    "The link is incomplete, expired or replaced by a newer one; ask for a new link in the application."
            ))
        guard parameters.repeated.isEmpty, let clientID = parameters["client_id"],
            let connection = parameters["connection"].flatMap(PasswordlessConnection.init(rawValue:)),
            connection == .email, let address = parameters["email"], let code = parameters["verification_code"]
        else { return invalid }
        let key = PasswordlessCode.key(clientID: clientID, connection: connection, address: address)
        guard let record = try await store.peek(PasswordlessCode.self, key: key, at: clock.now()),
            let request = record.link
        else { return invalid }
        let user: TenantUser
        do {
            let redeemed = try await services.redeemPasswordlessCode(
                code, clientID: clientID, connection: connection, address: address, link: true)
            user = try await services.passwordlessUser(connection, address: redeemed.address)
        } catch  where error.code == .invalidGrant {
            return request.response([("error", "access_denied"), ("error_description", error.detail)]).browserResponse
        }
        let (answer, cookie) = try await webAuth.openSession(
            userID: user.id, authTime: clock.now(), request: request, refusal: nil, secure: secure)
        var response = answer.browserResponse
        response.cookies.append(cookie)
        return response
    }
}
