import FoundationEssentials
import WebAuthn

extension AuthenticationAPI {
    /// The password grants: Auth0's `http://auth0.com/oauth/grant-type/password-realm`
    /// (`username`, `password`, `realm` = the database connection) and the resource owner password
    /// grant (RFC 6749 §4.3: `username`, `password`, on the default directory, here the database
    /// connection), each with `scope` and `audience`.
    ///
    /// The client is authenticated already and has the `password` grant type (Auth0's "Password";
    /// the default native application has it while the connection takes passwords). The checks,
    /// in order: the realm, the parameters, bot detection's CAPTCHA (`captcha`, **[local]**),
    /// the scopes, the organization, then the password under the user's lockout
    /// (``TenantServices/verifiedPasswordLogin(_:password:)``). The tokens come from the one
    /// ``TenantServices/issueTokens(for:scopes:audience:organization:authTime:nonce:sessionID:identifiers:refresh:boundTo:client:)``.
    ///
    /// - Throws: `invalid_request` for another realm (as the webauthn grant answers it), a
    ///   connection without passwords, a missing username or password; `requires_verification` without the CAPTCHA answer while bot detection is on;
    ///   `invalid_grant` (403) `Wrong email or password.` for an unknown user, a user without a
    ///   password or a wrong one; `too_many_attempts` (429) for a locked-out user or address.
    func passwordGrant(_ request: TokenRequest) async throws(TenantError) -> TokenResponse {
        let realm = request.grantType == TokenRequest.passwordRealmGrant ? request.realm : nil
        if request.grantType == TokenRequest.passwordRealmGrant, realm == nil {
            throw .invalidRequest("Missing required parameter: realm")
        }
        let connection = try services.checkRealm(realm)
        guard configuration.databaseConnection.passwordsEnabled else {
            throw .invalidRequest("The connection \(connection) does not take passwords.")
        }
        guard let username = request.username, !username.isEmpty else {
            throw .invalidRequest("Missing required parameter: username")
        }
        guard let password = request.password, !password.text.isEmpty else {
            throw .invalidRequest("Missing required parameter: password")
        }
        try services.checkCaptcha(request.captcha)
        let (scopes, audience) = try services.grantedScopes(request.scope, audience: request.audience)
        let organization = try services.checkOrganization(request.organization)
        let user = try await services.verifiedPasswordLogin(username, password: password)
        try await services.admit(user, to: organization)
        return try await services.issueTokens(
            for: user, scopes: scopes, audience: audience, organization: organization, authTime: clock.now(),
            sessionID: LoginSession.newID(), refresh: nil, boundTo: request.dpopThumbprint, client: request.clientID)
    }
}
