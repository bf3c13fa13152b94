import FoundationEssentials
import WebAuthn

extension PasskeyTenant {
    /// `POST /passkey/challenge`: opens a login with a discoverable credential
    /// (auth0-passkey-api.md §2): no `allowCredentials`, the user handle comes back in the assertion.
    ///
    /// - Parameter request: the client and the connection.
    /// - Returns: the `auth_session` and the request options (camel-case `rpId`).
    /// - Throws: `invalid_client` (401) for an unknown client; `invalid_request` for an unknown
    ///   connection.
    public func loginChallenge(_ request: LoginChallengeRequest) async throws(TenantError) -> RequestChallengeResponse {
        try checkClient(request.clientID)
        let connection = try checkRealm(request.realm)
        let generated = configuration.relyingParty.generateAuthenticationOptions(timeout: configuration.sessionLifetime)
        let secret = try await openSession(
            .login, clientID: request.clientID, connection: connection, organization: request.organization,
            user: nil, challenge: generated.challenge)
        return RequestChallengeResponse(authSession: secret, options: generated.options)
    }

    /// The webauthn grant for a login session: finds the credential by its ID, verifies the
    /// assertion against its record (user handle, counter, BE), stores the new counter and BS,
    /// and issues tokens (auth0-passkey-api.md §3.4; WebAuthn L3 §7.2).
    ///
    /// Failures count against the credential's user, who is locked out after too many.
    func completeLogin(_ session: PendingSession, request: TokenRequest) async throws(TenantError) -> TokenResponse {
        guard let response = request.authnResponse else { throw .invalidRequest("authn_response: missing") }
        let assertion = try response.authenticationResponse()
        let (scopes, audience) = try grantedScopes(request.scope, audience: request.audience)
        guard let (credential, user) = try await store.credential(id: assertion.rawId.bytes) else {
            throw .invalidGrant("The passkey is not registered with this tenant.")
        }
        try await checkAttempts([.user(user.id)])
        return try await counting([.user(user.id)]) { () async throws(TenantError) -> TokenResponse in
            let verified: VerifiedAuthentication
            do throws(WebAuthnError) {
                // A discoverable login: the user is known only through the assertion's user handle.
                verified = try configuration.relyingParty.verifyAuthentication(
                    assertion, challenge: session.challenge, credential: credential.record(userHandle: user.userHandle),
                    userIdentified: .byResponse)
            } catch {
                throw refused(error)
            }
            guard
                try await store.recordAssertion(
                    credentialID: credential.id, previousSignCount: credential.signCount,
                    signCount: verified.signCount, backedUp: verified.backupState, at: clock.now())
            else {
                throw .invalidGrant("The passkey's signature counter moved during this login; try again.")
            }
            return try await issueTokens(
                for: user, scopes: scopes, audience: audience, organization: session.organization, refresh: nil)
        }
    }
}
