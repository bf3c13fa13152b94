public import WebAuthn

extension Authentication {
    /// Asks for a passkey signup challenge: `POST /passkey/register` (spec §1).
    ///
    /// `user_profile` is always sent, holding the identifiers and profile members given;
    /// `user_metadata` goes at the top level. The tenant answers `invalid_request` when an
    /// identifier the connection requires is missing or already taken.
    ///
    /// ```swift
    /// let challenge = try await auth.passkeySignupChallenge(email: "ada@example.com", name: "Ada").start()
    /// ```
    ///
    /// - Parameters:
    ///   - email: `user_profile.email`.
    ///   - phoneNumber: `user_profile.phone_number`, E.164.
    ///   - username: `user_profile.username`.
    ///   - name: `user_profile.name`, the display name.
    ///   - givenName: `user_profile.given_name`.
    ///   - familyName: `user_profile.family_name`.
    ///   - nickname: `user_profile.nickname`.
    ///   - picture: `user_profile.picture`, a URL.
    ///   - userMetadata: `user_metadata`, at most 10 string members.
    ///   - connection: the database connection (`realm`); the tenant's default when `nil`.
    ///   - organization: the organization: its ID, or its name where the tenant accepts names (spec §17).
    /// - Returns: the request; it decodes a ``PasskeySignupChallenge``.
    public func passkeySignupChallenge(
        email: String? = nil, phoneNumber: String? = nil, username: String? = nil, name: String? = nil,
        givenName: String? = nil, familyName: String? = nil, nickname: String? = nil, picture: String? = nil,
        userMetadata: [String: String]? = nil, connection: String? = nil, organization: String? = nil
    ) -> Request<PasskeySignupChallenge, AuthenticationError> {
        let body = SignupChallengeBody(
            clientId: clientId,
            userProfile: .init(
                email: email, phoneNumber: phoneNumber, username: username, name: name, givenName: givenName,
                familyName: familyName, nickname: nickname, picture: picture),
            realm: connection, organization: organization, userMetadata: userMetadata)
        return post(
            "passkey/register", body, retryable: true,
            ResponseHandling.json(PasskeySignupChallenge.self, AuthenticationError.self))
    }

    /// Asks for a passkey login challenge: `POST /passkey/challenge` (spec §2).
    ///
    /// ```swift
    /// let challenge = try await auth.passkeyLoginChallenge().start()
    /// ```
    ///
    /// - Parameters:
    ///   - connection: the database connection (`realm`).
    ///   - organization: the organization: its ID, or its name where the tenant accepts names (spec §17).
    /// - Returns: the request; it decodes a ``PasskeyLoginChallenge``.
    public func passkeyLoginChallenge(
        connection: String? = nil, organization: String? = nil
    ) -> Request<PasskeyLoginChallenge, AuthenticationError> {
        post(
            "passkey/challenge", LoginChallengeBody(clientId: clientId, realm: connection, organization: organization),
            retryable: true, ResponseHandling.json(PasskeyLoginChallenge.self, AuthenticationError.self))
    }

    /// Completes a passkey signup: the webauthn grant with the new passkey (spec §3).
    ///
    /// The tenant verifies the attestation against the challenge, creates the user with this
    /// passkey and issues tokens. Never retried: the `auth_session` is single-use.
    ///
    /// - Parameters:
    ///   - passkey: the passkey the authenticator created for `challenge`.
    ///   - challenge: the signup challenge.
    ///   - connection: the database connection (`realm`).
    ///   - audience: the API the access token is for.
    ///   - scope: the scopes; `openid` is added when missing (spec §3.3).
    ///   - organization: the organization: its ID, or its name where the tenant accepts names (spec §17).
    /// - Returns: the request; it decodes ``Credentials``.
    public func login(
        passkey: some SignupPasskey, challenge: PasskeySignupChallenge, connection: String? = nil,
        audience: String? = nil, scope: String = Authentication.defaultScope, organization: String? = nil
    ) -> Request<Credentials, AuthenticationError> {
        webAuthnGrant(
            AuthnResponseBody(passkey), session: challenge.authenticationSession, connection: connection,
            audience: audience, scope: scope, organization: organization)
    }

    /// Completes a passkey login: the webauthn grant with an assertion (spec §3).
    ///
    /// Never retried: the `auth_session` is single-use.
    ///
    /// - Parameters:
    ///   - passkey: the assertion the authenticator made for `challenge`.
    ///   - challenge: the login challenge.
    ///   - connection: the database connection (`realm`).
    ///   - audience: the API the access token is for.
    ///   - scope: the scopes; `openid` is added when missing (spec §3.3).
    ///   - organization: the organization: its ID, or its name where the tenant accepts names (spec §17).
    /// - Returns: the request; it decodes ``Credentials``.
    public func login(
        passkey: some LoginPasskey, challenge: PasskeyLoginChallenge, connection: String? = nil,
        audience: String? = nil, scope: String = Authentication.defaultScope, organization: String? = nil
    ) -> Request<Credentials, AuthenticationError> {
        webAuthnGrant(
            AuthnResponseBody(passkey), session: challenge.authenticationSession, connection: connection,
            audience: audience, scope: scope, organization: organization)
    }

    private func webAuthnGrant(
        _ response: AuthnResponseBody, session: String, connection: String?, audience: String?, scope: String,
        organization: String?
    ) -> Request<Credentials, AuthenticationError> {
        let body = TokenGrantBody(
            grantType: .webAuthn, clientId: clientId, authSession: session, authnResponse: response,
            scope: Scope.includingOpenID(scope), realm: connection, audience: audience, organization: organization)
        return post("oauth/token", body, retryable: false, Self.credentials)
    }
}

/// `POST /passkey/register` (spec §1.1).
struct SignupChallengeBody: Encodable {
    struct UserProfile: Encodable {
        let email: String?
        let phoneNumber: String?
        let username: String?
        let name: String?
        let givenName: String?
        let familyName: String?
        let nickname: String?
        let picture: String?

        enum CodingKeys: String, CodingKey {
            case email, username, name, nickname, picture
            case phoneNumber = "phone_number"
            case givenName = "given_name"
            case familyName = "family_name"
        }
    }

    let clientId: String
    let userProfile: UserProfile
    let realm: String?
    let organization: String?
    let userMetadata: [String: String]?

    enum CodingKeys: String, CodingKey {
        case clientId = "client_id"
        case userProfile = "user_profile"
        case realm, organization
        case userMetadata = "user_metadata"
    }
}

/// `POST /passkey/challenge` (spec §2.1).
struct LoginChallengeBody: Encodable {
    let clientId: String
    let realm: String?
    let organization: String?

    enum CodingKeys: String, CodingKey {
        case clientId = "client_id"
        case realm, organization
    }
}
