/// `POST /oauth/token`'s answer (auth0-passkey-api.md §3.5; §16.4 and RFC 9449 §5 for `DPoP`).
///
/// ```
/// { "access_token": string, "token_type": "Bearer" | "DPoP", "expires_in": number, "scope": string,
///   "id_token"?: string, "refresh_token"?: string }
/// ```
///
/// `token_type` is `DPoP` when the request carried a valid DPoP proof: the access token then
/// holds `cnf.jkt` and goes as `Authorization: DPoP <token>` with a proof of the same key.
public struct TokenResponse: Sendable, Hashable, Codable {
    public var accessToken: Secret
    public var tokenType: String
    public var expiresIn: Int
    public var scope: String
    public var idToken: Secret?
    public var refreshToken: Secret?

    /// Creates an answer.
    public init(
        accessToken: Secret, tokenType: String = "Bearer", expiresIn: Int, scope: String, idToken: Secret?,
        refreshToken: Secret?
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.scope = scope
        self.idToken = idToken
        self.refreshToken = refreshToken
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case scope
        case idToken = "id_token"
        case refreshToken = "refresh_token"
    }
}
