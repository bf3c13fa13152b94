/// `POST /passkey/register`'s body (auth0-passkey-api.md §1.1).
///
/// ```
/// { "client_id": string, "user_profile": {email?, phone_number?, username?, name?, ...},
///   "realm"?: string, "organization"?: string, "user_metadata"?: {string: string} }
/// ```
public struct SignupChallengeRequest: Sendable, Hashable, Codable {
    public var clientID: String
    public var userProfile: UserProfile
    public var realm: String?
    public var organization: String?
    public var userMetadata: [String: String]?

    /// Creates a request.
    public init(
        clientID: String, userProfile: UserProfile, realm: String? = nil, organization: String? = nil,
        userMetadata: [String: String]? = nil
    ) {
        self.clientID = clientID
        self.userProfile = userProfile
        self.realm = realm
        self.organization = organization
        self.userMetadata = userMetadata
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case userProfile = "user_profile"
        case realm, organization
        case userMetadata = "user_metadata"
    }
}

/// `POST /passkey/challenge`'s body (auth0-passkey-api.md §2.1).
///
/// ```
/// { "client_id": string, "realm"?: string, "organization"?: string }
/// ```
public struct LoginChallengeRequest: Sendable, Hashable, Codable {
    public var clientID: String
    public var realm: String?
    public var organization: String?

    /// Creates a request.
    public init(clientID: String, realm: String? = nil, organization: String? = nil) {
        self.clientID = clientID
        self.realm = realm
        self.organization = organization
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case realm, organization
    }
}
