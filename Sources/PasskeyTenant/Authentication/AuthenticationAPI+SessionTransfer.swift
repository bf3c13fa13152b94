import FoundationEssentials
import WebAuthn

extension AuthenticationAPI {
    /// The refresh grant with `audience=urn:<domain>:session_transfer` (Auth0's Native to Web SSO,
    /// Auth0.swift's `ssoExchange(withRefreshToken:)`): a session transfer token for the refresh
    /// token's user, which a web application of the tenant redeems at
    /// `/authorize?session_transfer_token=…` for a web session without a login.
    ///
    /// ```
    /// POST /oauth/token  grant_type=refresh_token&client_id=…&refresh_token=…
    ///                    &audience=urn:<domain>:session_transfer
    /// 200 {"access_token": <session transfer token>, "issued_token_type":
    ///      "urn:auth0:params:oauth:token-type:session_transfer_token", "token_type": "N_A",
    ///      "expires_in": 60, "refresh_token": <rotated>}
    /// ```
    ///
    /// The refresh token is rotated, as by every refresh (Auth0 sends the rotated one when
    /// rotation is on; the local tenant always rotates). **[local]** Only a native application
    /// may create one (Auth0's `session_transfer.can_create_session_transfer_token`, set on the
    /// native application); no ID token is sent.
    ///
    /// - Throws: as ``refresh(_:)``; `unauthorized_client` (403) for an application that is not
    ///   native.
    func sessionTransfer(_ request: TokenRequest) async throws(TenantError) -> TokenResponse {
        try await usingRefreshToken(request) { (_, user) async throws(TenantError) -> TokenResponse in
            guard services.application(request.clientID)?.appType == .native else {
                throw TenantError(
                    .unauthorizedClient, status: 403, "The client is not allowed to create session transfer tokens.")
            }
            let (successor, rotated) = try await rotate(request)
            let token = Secret.random()
            let lifetime = configuration.sessionTransferLifetime.seconds
            try await store.insert(
                SessionTransfer(
                    userID: user.id, clientID: request.clientID, authTime: rotated.authTime,
                    organization: rotated.organization, expiresAt: clock.now().addingTimeInterval(lifetime)),
                key: .digest(token.digest))
            return TokenResponse(
                accessToken: token, tokenType: SessionTransfer.tokenType, expiresIn: Int(lifetime), scope: "",
                idToken: nil, refreshToken: successor, issuedTokenType: SessionTransfer.issuedTokenType)
        }
    }
}
