import FoundationEssentials
import WebAuthn

extension AuthenticationAPI {
    /// `POST /passkey/register`: opens a signup for a user who does not exist yet
    /// (auth0-passkey-api.md §1).
    func signupChallenge(_ request: SignupChallengeRequest, authorization: (scheme: String, token: Secret)? = nil)
        async throws(TenantError)
        -> CreationChallengeResponse
    {
        try await challenge(
            .signup, request.clientID, request.clientSecret, authorization, request.realm, request.organization
        ) { connection, organization throws(TenantError) in
            try services.checkSignup(into: organization)
            let user = try await services.newUser(
                profile: request.userProfile, metadata: request.userMetadata ?? [:], connection: connection)
            return (user, services.registrationOptions(for: user))
        }
    }

    /// The webauthn grant for a signup session: verifies the registration, stores the user with
    /// the passkey, and issues tokens (auth0-passkey-api.md §3.4).
    func completeSignup(_ session: PendingSession, request: TokenRequest) async throws(TenantError) -> TokenResponse {
        guard let response = request.authnResponse else { throw .invalidRequest("authn_response: missing") }
        guard let user = session.user else { throw .invalidGrant("The auth_session carries no user.") }
        let (scopes, audience) = try services.grantedScopes(request.scope, audience: request.audience)
        let credential = try services.verifiedPasskey(
            response, challenge: session.challenge, relyingParty: configuration.relyingParty, userID: user.id,
            userAgent: nil)
        let organization = try services.issuedOrganization(session.organization)
        try await store.createUser(user, credential: credential)
        try await services.join(user, to: organization)
        return try await services.issueTokens(
            for: user, scopes: scopes, audience: audience, organization: organization, authTime: clock.now(),
            sessionID: LoginSession.newID(), refresh: nil, boundTo: request.dpopThumbprint, client: session.clientID)
    }
}
