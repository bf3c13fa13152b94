/// `POST /passkey/register`'s body (auth0-passkey-api.md §1.1); `client_secret` only from a
/// confidential client, which may send it in `Authorization: Basic` instead.
///
/// ```
/// { "client_id": string, "client_secret"?: string,
///   "user_profile": {email?, phone_number?, username?, name?, ...},
///   "realm"?: string, "organization"?: string, "user_metadata"?: {string: string} }
/// ```
public struct SignupChallengeRequest: Sendable, Hashable, Codable {
    public var clientID: String
    /// A confidential client's secret (`client_secret_post`); nil from a public client.
    public var clientSecret: Secret?
    public var userProfile: UserProfile
    public var realm: String?
    public var organization: String?
    public var userMetadata: [String: String]?

    /// Creates a request.
    public init(
        clientID: String, userProfile: UserProfile, realm: String? = nil, organization: String? = nil,
        userMetadata: [String: String]? = nil, clientSecret: Secret? = nil
    ) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.userProfile = userProfile
        self.realm = realm
        self.organization = organization
        self.userMetadata = userMetadata
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case userProfile = "user_profile"
        case realm, organization
        case userMetadata = "user_metadata"
    }
}

/// `POST /passkey/challenge`'s body (auth0-passkey-api.md §2.1); `client_secret` as for
/// ``SignupChallengeRequest``.
///
/// ```
/// { "client_id": string, "client_secret"?: string, "realm"?: string, "organization"?: string }
/// ```
public struct LoginChallengeRequest: Sendable, Hashable, Codable {
    public var clientID: String
    /// A confidential client's secret (`client_secret_post`); nil from a public client.
    public var clientSecret: Secret?
    public var realm: String?
    public var organization: String?

    /// Creates a request.
    public init(clientID: String, realm: String? = nil, organization: String? = nil, clientSecret: Secret? = nil) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.realm = realm
        self.organization = organization
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case realm, organization
    }
}
