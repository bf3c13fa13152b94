import FoundationEssentials
import WebAuthn

extension AuthenticationAPI {
    /// `POST /passkey/challenge`: opens a login with a discoverable credential
    /// (auth0-passkey-api.md §2): no `allowCredentials`, the user handle comes back in the assertion.
    func loginChallenge(_ request: LoginChallengeRequest, authorization: (scheme: String, token: Secret)? = nil)
        async throws(TenantError) -> RequestChallengeResponse
    {
        try await challenge(
            .login, request.clientID, request.clientSecret, authorization, request.realm, request.organization
        ) { _, _ throws(TenantError) in
            (nil, configuration.relyingParty.generateAuthenticationOptions(timeout: configuration.sessionLifetime))
        }
    }

    /// The webauthn grant for a login session: verifies the assertion
    /// (``TenantServices/verifiedAssertion(_:challenge:relyingParty:)``) and issues tokens (auth0-passkey-api.md §3.4), once the user is let in through the
    /// session's organization (§17).
    func completeLogin(_ session: PendingSession, request: TokenRequest) async throws(TenantError) -> TokenResponse {
        guard let response = request.authnResponse else { throw .invalidRequest("authn_response: missing") }
        let (scopes, audience) = try services.grantedScopes(request.scope, audience: request.audience)
        let organization = try services.issuedOrganization(session.organization)
        let (user, assertion) = try await services.verifiedAssertion(
            response, challenge: session.challenge, relyingParty: configuration.relyingParty)
        try await services.admit(user, to: organization)
        // The assertion is stored with the refresh token, in one transaction.
        return try await services.issueTokens(
            for: user, scopes: scopes, audience: audience, organization: organization, authTime: clock.now(),
            sessionID: LoginSession.newID(), refresh: nil, boundTo: request.dpopThumbprint, client: session.clientID,
            recording: assertion)
    }
}
