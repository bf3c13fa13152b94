import FoundationEssentials
import WebAuthn

extension PasskeyTenant {
    /// `POST /passkey/register`: opens a signup for a user who does not exist yet
    /// (auth0-passkey-api.md §1).
    ///
    /// - Parameter request: the client, the connection and the new user's profile.
    /// - Returns: the `auth_session` and the creation options, with a fresh user handle.
    /// - Throws: `invalid_client` (401) for an unknown client; `invalid_request` for an unknown
    ///   connection, a profile that lacks a required identifier, gives one the connection turned
    ///   off, has an unknown or malformed property, too much metadata, or an identifier that
    ///   belongs to a user already (auth0-passkey-api.md §18), and for an organization the
    ///   application's usage refuses or the tenant does not have; `access_denied` (403) for an
    ///   organization that does not take signups (§17).
    public func signupChallenge(_ request: SignupChallengeRequest) async throws(TenantError)
        -> CreationChallengeResponse
    {
        try checkClient(request.clientID)
        let connection = try checkRealm(request.realm)
        let organization = try checkOrganization(request.organization)
        try checkSignup(into: organization)
        let user = try await newUser(
            profile: request.userProfile, metadata: request.userMetadata ?? [:], connection: connection)
        let generated = registrationOptions(for: user)
        let secret = try await openSession(
            .signup, clientID: request.clientID, connection: connection, organization: organization?.id,
            user: user, challenge: generated.challenge)
        return CreationChallengeResponse(authSession: secret, options: generated.options)
    }

    /// A new user for a signup with `profile` on `connection`, not stored yet (auth0-passkey-api.md
    /// §1.1, §18): the native signup's and the login page's one set of rules.
    ///
    /// - Throws: `invalid_request` for a profile that lacks a required identifier, gives one the
    ///   connection turned off, has a malformed property (a phone number not in E.164, a username
    ///   outside the connection's rules), too much metadata, or an identifier that belongs to a user
    ///   already (`The user already exists.`).
    func newUser(profile: UserProfile, metadata: [String: String], connection: String) async throws(TenantError)
        -> TenantUser
    {
        try configuration.identifiers.check(profile, connection: connection)
        try profile.validate()
        guard metadata.count <= 10, metadata.allSatisfy({ !$0.key.isEmpty && $0.value.count <= 500 }) else {
            throw .invalidRequest("user_metadata: at most 10 string fields of at most 500 characters")
        }
        if try await store.takenIdentifier(of: profile) != nil {
            throw Self.userAlreadyExists
        }
        return TenantUser.new(profile: profile, metadata: metadata, at: clock.now())
    }

    /// Verifies a registration against the challenge it answers and returns the credential to
    /// store (WebAuthn L3 §7.1); checking that the credential ID is new is the store's.
    ///
    /// - Parameters:
    ///   - response: the client's `toJSON()`.
    ///   - challenge: the challenge issued.
    ///   - relyingParty: the policy; the configuration's, or the login page's with its origin.
    ///   - userID: the owner.
    ///   - userAgent: the registering client's `User-Agent`, if known.
    /// - Throws: `invalid_request` for a response that is not a registration (a missing `type`
    ///   included); `invalid_grant` naming the check that failed, `wrong-credential-type` for a
    ///   `type` other than `public-key` (WebAuthn L3 §5.1, checked by the relying party before §7.1).
    func verifiedPasskey(
        _ response: PasskeyResponse, challenge: [UInt8], relyingParty: RelyingParty, userID: String,
        userAgent: String?
    ) throws(TenantError) -> TenantCredential {
        let registration = try response.registrationResponse()
        let verified: VerifiedRegistration
        do throws(WebAuthnError) {
            verified = try relyingParty.verifyRegistration(registration, challenge: challenge)
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
        let credential = try verifiedPasskey(
            response, challenge: session.challenge, relyingParty: configuration.relyingParty, userID: user.id,
            userAgent: nil)
        let organization = try issuedOrganization(session.organization)
        try await store.createUser(user, credential: credential)
        try await join(user, to: organization)
        return try await issueTokens(
            for: user, scopes: scopes, audience: audience, organization: organization, authTime: clock.now(),
            refresh: nil, boundTo: request.dpopThumbprint)
    }

    /// Auth0's refusal of a signup whose identifier belongs to a user already
    /// (auth0-passkey-api.md §18).
    static let userAlreadyExists = TenantError.invalidRequest("The user already exists.")
}
