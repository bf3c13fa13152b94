import FoundationEssentials

extension AuthenticationAPI {
    /// The passwordless OTP grant (Auth0 docs, "Authenticate User" with
    /// `grant_type=http://auth0.com/oauth/grant-type/passwordless/otp`): the code
    /// `/passwordless/start` sent to `username` (the email or phone number) on `realm` (`email`
    /// or `sms`), for the same client, exchanged once for tokens of `scope` and `audience`.
    ///
    /// The scope and audience are checked before the code is tried, so a mistyped audience does
    /// not burn it. The user is found or created at the first login
    /// (``TenantServices/passwordlessUser(_:address:)``), admitted to the organization asked
    /// for, and the tokens issued through ``TenantServices/issueTokens(for:scopes:audience:organization:authTime:nonce:sessionID:identifiers:refresh:boundTo:client:)``.
    ///
    /// - Throws: `invalid_request` for a missing `username`, `otp` or `realm`, or a realm that is
    ///   not a passwordless connection; `access_denied` (403) for an unknown audience;
    ///   `invalid_grant` (403) as ``TenantServices/redeemPasswordlessCode(_:clientID:connection:address:link:)``
    ///   says; the organization's refusals.
    func passwordlessLogin(_ request: TokenRequest) async throws(TenantError) -> TokenResponse {
        guard let realm = request.realm else { throw .invalidRequest("realm: missing (email or sms)") }
        guard let connection = PasswordlessConnection(rawValue: realm) else {
            throw .invalidRequest("Connection does not exist: \(realm.prefix(64))")
        }
        guard let username = request.username, !username.isEmpty else { throw .invalidRequest("username: missing") }
        guard let otp = request.otp, !otp.text.isEmpty else { throw .invalidRequest("otp: missing") }
        let (scopes, audience) = try services.grantedScopes(request.scope, audience: request.audience)
        let organization = try services.checkOrganization(request.organization)
        let redeemed = try await services.redeemPasswordlessCode(
            otp.text, clientID: request.clientID, connection: connection, address: username, link: false)
        let user = try await services.passwordlessUser(connection, address: redeemed.address)
        try await services.admit(user, to: organization)
        return try await services.issueTokens(
            for: user, scopes: scopes, audience: audience, organization: organization, authTime: clock.now(),
            sessionID: nil, refresh: nil, boundTo: request.dpopThumbprint, client: request.clientID)
    }
}
