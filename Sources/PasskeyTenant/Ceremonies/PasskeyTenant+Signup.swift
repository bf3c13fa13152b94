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
        let (secret, challenge) = try await openSession(
            .signup, clientID: request.clientID, connection: connection, organization: request.organization,
            user: user)
        return CreationChallengeResponse(authSession: secret, options: creationOptions(for: user, challenge: challenge))
    }

    /// The webauthn grant for a signup session: verifies the registration, stores the user with
    /// the passkey, and issues tokens (auth0-passkey-api.md §3.4).
    func completeSignup(_ session: PendingSession, request: TokenRequest) async throws(TenantError) -> TokenResponse {
        guard let response = request.authnResponse else { throw .invalidRequest("authn_response: missing") }
        let registration = try response.registrationResponse()
        guard let user = session.user else { throw .invalidGrant("The auth_session carries no user.") }
        let (scopes, audience) = try grantedScopes(request.scope, audience: request.audience)
        let verified: VerifiedRegistration
        do throws(WebAuthnError) {
            verified = try configuration.relyingParty.verifyRegistration(registration, challenge: session.challenge)
        } catch {
            throw refused(error)
        }
        let credential = TenantCredential.registered(
            verified, userID: user.id, transports: registration.response.transports?.map(\.rawValue) ?? [],
            userAgent: nil, at: clock.now())
        try await store.createUser(user, credential: credential)
        return try await issueTokens(
            for: user, scopes: scopes, audience: audience, organization: session.organization, refresh: nil)
    }
}
