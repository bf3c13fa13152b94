/// `POST /me/v1/authentication-methods`'s body (auth0-passkey-api.md §5.2).
///
/// ```
/// { "type": "passkey", "connection"?: string, "identity_user_id"?: string,
///   "use_exclude_credentials"?: boolean }
/// ```
public struct EnrollmentChallengeRequest: Sendable, Hashable, Codable {
    public var type: String
    public var connection: String?
    public var identityUserID: String?
    /// Whether the options list the user's passkeys in `excludeCredentials` (Auth0 internal).
    public var useExcludeCredentials: Bool?

    /// Creates a request.
    public init(
        type: String = "passkey", connection: String? = nil, identityUserID: String? = nil,
        useExcludeCredentials: Bool? = nil
    ) {
        self.type = type
        self.connection = connection
        self.identityUserID = identityUserID
        self.useExcludeCredentials = useExcludeCredentials
    }

    enum CodingKeys: String, CodingKey {
        case type, connection
        case identityUserID = "identity_user_id"
        case useExcludeCredentials = "use_exclude_credentials"
    }
}

/// `POST /me/v1/authentication-methods/{id}/verify`'s body (auth0-passkey-api.md §5.3).
///
/// ```
/// { "auth_session": string, "authn_response": RegistrationResponseJSON }
/// ```
public struct EnrollmentVerifyRequest: Sendable, Hashable, Codable {
    public var authSession: Secret
    public var authnResponse: PasskeyResponse

    /// Creates a request.
    public init(authSession: Secret, authnResponse: PasskeyResponse) {
        self.authSession = authSession
        self.authnResponse = authnResponse
    }

    enum CodingKeys: String, CodingKey {
        case authSession = "auth_session"
        case authnResponse = "authn_response"
    }
}
