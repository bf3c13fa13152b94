import FoundationEssentials
import WebAuthn

extension AuthenticationAPI {
    /// `POST /oauth/token` with `grant_type=client_credentials` (RFC 6749 §4.4; auth0-passkey-api.md
    /// §15.1): a Management API access token for a machine-to-machine client: the built-in one, or
    /// a configured application whose `grant_types` has `client_credentials`.
    ///
    /// The client is authenticated already (``token(_:proof:authorization:)``: the native
    /// application, a public client, gets `unauthorized_client`; a missing or wrong secret
    /// `invalid_client`). The token is RS256 with `sub` `<client id>@clients`, `gty`
    /// `client-credentials`, `aud` the management audience and `scope` the client's scopes, or
    /// the subset asked for; there is no ID token and no refresh token (RFC 6749 §4.4.3).
    ///
    /// - Parameter request: the request, its `client_id` the authenticated client's.
    /// - Throws: `access_denied` (403), as Auth0 says it, for a missing audience, another audience,
    ///   or a scope the client was not granted.
    func clientCredentials(_ request: TokenRequest) async throws(TenantError) -> TokenResponse {
        let audience = configuration.managementAudience
        guard let asked = request.audience else {
            throw TenantError(
                .accessDenied, status: 403,
                "No audience parameter was provided, and no default audience has been configured")
        }
        guard asked == audience else {
            throw TenantError(
                .accessDenied, status: 403,
                #"Client is not authorized to access "\#(asked.prefix(200))". "#
                    + #"You need to create a "client-grant" associated to this API."#)
        }
        let scopes = try managementScopes(asked: request.scope)
        let issuedAt = Int(clock.now().timeIntervalSince1970)
        let lifetime = Int(configuration.accessTokenLifetime.seconds)
        let claims = AccessTokenClaims(
            RegisteredClaims(
                iss: configuration.issuer, sub: request.clientID + "@clients", aud: Audience([audience]),
                azp: request.clientID, iat: issuedAt, exp: issuedAt + lifetime),
            AccessTokenGrant(
                scope: scopes.joined(separator: " "), jti: TokenIdentifiers.random().accessTokenID, orgID: nil,
                gty: TenantServices.clientCredentialsGty))
        return TokenResponse(
            accessToken: Secret(try await services.signer.sign(claims)), expiresIn: lifetime,
            scope: scopes.joined(separator: " "), idToken: nil, refreshToken: nil)
    }

    /// The scopes a client credentials token carries: all of the client's when none are asked
    /// for, else the ones asked for, each once, in the order asked.
    ///
    /// - Throws: `access_denied` (403) naming the scopes asked for that the client lacks.
    private func managementScopes(asked: String?) throws(TenantError) -> [String] {
        let granted = configuration.managementScopes
        var wanted: [String] = []
        for name in (asked ?? "").split(separator: " ").map(String.init) where !wanted.contains(name) {
            wanted.append(name)
        }
        guard !wanted.isEmpty else { return granted }
        let missing = wanted.filter { !granted.contains($0) }
        guard missing.isEmpty else {
            throw TenantError(
                .accessDenied, status: 403,
                "Client has not been granted scopes: \(missing.joined(separator: ", ").prefix(300))")
        }
        return wanted
    }
}
