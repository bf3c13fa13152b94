import FoundationEssentials
import WebAuthn

extension PasskeyTenant {
    /// `POST /passkey/register`: opens a signup for a user who does not exist yet
    /// (auth0-passkey-api.md §1).
    ///
    /// - Parameter request: the client, the connection and the new user's profile.
    /// - Returns: the `auth_session` and the creation options, with a fresh user handle.
    /// - Throws: `invalid_client` (401) for an unknown client; `invalid_request` for an unknown
    ///   connection, a profile that lacks a required identifier, has an unknown or malformed
    ///   property, too much metadata, or an identifier that belongs to a user already.
    public func signupChallenge(_ request: SignupChallengeRequest) async throws(TenantError)
        -> CreationChallengeResponse
    {
        try checkClient(request.clientID)
        let connection = try checkRealm(request.realm)
        let profile = request.userProfile
        try profile.validate()
        let present: Set<String> = Set(
            [("email", profile.email), ("phone_number", profile.phoneNumber), ("username", profile.username)]
                .compactMap { $0.1 == nil ? nil : $0.0 })
        guard !present.isEmpty else {
            throw .invalidRequest("user_profile: an email, phone_number or username is required")
        }
        if let missing = configuration.requiredIdentifiers.subtracting(present).sorted().first {
            throw .invalidRequest("user_profile.\(missing): required by connection \(connection)")
        }
        let metadata = request.userMetadata ?? [:]
        guard metadata.count <= 10, metadata.allSatisfy({ !$0.key.isEmpty && $0.value.count <= 500 }) else {
            throw .invalidRequest("user_metadata: at most 10 string fields of at most 500 characters")
        }
        if let taken = try await store.takenIdentifier(of: profile) {
            throw .invalidRequest("The user already exists (\(taken) is taken).")
        }
        let user = TenantUser.new(profile: profile, metadata: metadata, at: clock.now())
        let generated = registrationOptions(for: user)
        let secret = try await openSession(
            .signup, clientID: request.clientID, connection: connection, organization: request.organization,
            user: user, challenge: generated.challenge)
        return CreationChallengeResponse(authSession: secret, options: generated.options)
    }

    /// Verifies a registration against its session and returns the credential to store
    /// (WebAuthn L3 §7.1); checking that the credential ID is new is the store's.
    ///
    /// - Throws: `invalid_request` for a response that is not a registration; `invalid_grant`
    ///   naming the check that failed.
    func verifiedPasskey(
        _ response: PasskeyResponse, session: PendingSession, userID: String, userAgent: String?
    ) throws(TenantError) -> TenantCredential {
        let registration = try response.registrationResponse()
        let verified: VerifiedRegistration
        do throws(WebAuthnError) {
            verified = try configuration.relyingParty.verifyRegistration(registration, challenge: session.challenge)
        } catch {
            throw refused(error)
        }
        return TenantCredential.registered(
            verified, userID: userID, transports: registration.response.transports?.map(\.rawValue) ?? [],
            userAgent: userAgent.map { String($0.prefix(256)) }, at: clock.now())
    }

    /// The webauthn grant for a signup session: verifies the registration, stores the user with
    /// the passkey, and issues tokens (auth0-passkey-api.md §3.4).
    func completeSignup(_ session: PendingSession, request: TokenRequest) async throws(TenantError) -> TokenResponse {
        guard let response = request.authnResponse else { throw .invalidRequest("authn_response: missing") }
        guard let user = session.user else { throw .invalidGrant("The auth_session carries no user.") }
        let (scopes, audience) = try grantedScopes(request.scope, audience: request.audience)
        let credential = try verifiedPasskey(response, session: session, userID: user.id, userAgent: nil)
        try await store.createUser(user, credential: credential)
        return try await issueTokens(
            for: user, scopes: scopes, audience: audience, organization: session.organization, refresh: nil)
    }
}
