/// `POST /oauth/revoke`'s body (auth0-passkey-api.md §6.2; RFC 7009 §2.1).
///
/// ```
/// { "token": string, "client_id": string }
/// ```
public struct RevokeRequest: Sendable, Hashable, Codable {
    public var clientID: String
    public var token: Secret

    /// Creates a request.
    public init(token: Secret, clientID: String) {
        self.token = token
        self.clientID = clientID
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case token
    }
}
