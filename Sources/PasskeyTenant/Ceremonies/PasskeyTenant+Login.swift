import FoundationEssentials
import WebAuthn

extension PasskeyTenant {
    /// `POST /passkey/challenge`: opens a login with a discoverable credential
    /// (auth0-passkey-api.md §2): no `allowCredentials`, the user handle comes back in the assertion.
    ///
    /// - Parameter request: the client and the connection.
    /// - Returns: the `auth_session` and the request options (camel-case `rpId`).
    /// - Throws: `invalid_client` (401) for an unknown client; `invalid_request` for an unknown
    ///   connection, and for an organization missing under `require`, given under `deny`, or
    ///   unknown (auth0-passkey-api.md §17).
    public func loginChallenge(_ request: LoginChallengeRequest) async throws(TenantError) -> RequestChallengeResponse {
        try checkClient(request.clientID)
        let connection = try checkRealm(request.realm)
        let organization = try checkOrganization(request.organization)
        let generated = configuration.relyingParty.generateAuthenticationOptions(timeout: configuration.sessionLifetime)
        let secret = try await openSession(
            .login, clientID: request.clientID, connection: connection, organization: organization?.id,
            user: nil, challenge: generated.challenge)
        return RequestChallengeResponse(authSession: secret, options: generated.options)
    }

    /// The webauthn grant for a login session: verifies the assertion (``verifiedLogin(_:challenge:relyingParty:)``)
    /// and issues tokens (auth0-passkey-api.md §3.4), once the user is let in through the
    /// session's organization (§17).
    func completeLogin(_ session: PendingSession, request: TokenRequest) async throws(TenantError) -> TokenResponse {
        guard let response = request.authnResponse else { throw .invalidRequest("authn_response: missing") }
        let (scopes, audience) = try grantedScopes(request.scope, audience: request.audience)
        let organization = try issuedOrganization(session.organization)
        let user = try await verifiedLogin(
            response, challenge: session.challenge, relyingParty: configuration.relyingParty)
        try await admit(user, to: organization)
        return try await issueTokens(
            for: user, scopes: scopes, audience: audience, organization: organization, authTime: clock.now(),
            refresh: nil, boundTo: request.dpopThumbprint)
    }

    /// Verifies a discoverable login: finds the credential by its ID, verifies the assertion
    /// against its record (user handle, counter, BE) and stores the new counter and BS
    /// (WebAuthn L3 §7.2). The native grant's and the login page's one verification.
    ///
    /// Failures count against the credential's user, who is locked out after too many.
    ///
    /// - Parameters:
    ///   - response: the client's `toJSON()`.
    ///   - challenge: the challenge issued.
    ///   - relyingParty: the policy; the configuration's, or the login page's with its origin.
    /// - Returns: the user who logged in.
    /// - Throws: `invalid_request` for a response that is not an assertion (a missing `type`
    ///   included); `invalid_grant` for an unknown passkey or a failed check, `wrong-credential-type`
    ///   for a `type` other than `public-key` (WebAuthn L3 §5.1, checked by the relying party before
    ///   §7.2); `too_many_attempts` (429) for a locked-out user.
    func verifiedLogin(_ response: PasskeyResponse, challenge: [UInt8], relyingParty: RelyingParty)
        async throws(TenantError) -> TenantUser
    {
        let assertion = try response.authenticationResponse()
        guard let (credential, user) = try await store.credential(id: assertion.rawId.bytes) else {
            throw .invalidGrant("The passkey is not registered with this tenant.")
        }
        try await checkAttempts([.user(user.id)])
        return try await counting([.user(user.id)]) { () async throws(TenantError) -> TenantUser in
            let verified: VerifiedAuthentication
            do throws(WebAuthnError) {
                // A discoverable login: the user is known only through the assertion's user handle.
                verified = try relyingParty.verifyAuthentication(
                    assertion, challenge: challenge, credential: credential.record(userHandle: user.userHandle),
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
            return user
        }
    }
}
