/// `POST /oauth/revoke`'s body (auth0-passkey-api.md §6.2; RFC 7009 §2.1).
///
/// ```
/// { "token": string, "client_id": string, "client_secret"?: string }
/// ```
///
/// `client_id` may be absent when the client authenticates with `Authorization: Basic`
/// (RFC 6749 §2.3.1), and is then read as empty; an absent `token` is read as empty too, and
/// refused once the client is authenticated.
public struct RevokeRequest: Sendable, Hashable, Codable {
    public var clientID: String
    public var token: Secret
    /// The secret of a confidential client that authenticates with `client_secret_post`.
    public var clientSecret: Secret?

    /// Creates a request.
    public init(token: Secret, clientID: String, clientSecret: Secret? = nil) {
        self.token = token
        self.clientID = clientID
        self.clientSecret = clientSecret
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientID = try container.decodeIfPresent(String.self, forKey: .clientID) ?? ""
        token = try container.decodeIfPresent(Secret.self, forKey: .token) ?? Secret("")
        clientSecret = try container.decodeIfPresent(Secret.self, forKey: .clientSecret)
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case token
        case clientSecret = "client_secret"
    }
}
