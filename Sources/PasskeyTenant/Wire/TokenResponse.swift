/// `POST /oauth/token`'s answer (auth0-passkey-api.md §3.5; §16.4 and RFC 9449 §5 for `DPoP`).
///
/// ```
/// { "access_token": string, "token_type": "Bearer" | "DPoP", "expires_in": number, "scope": string,
///   "id_token"?: string, "refresh_token"?: string }
/// ```
///
/// `token_type` is `DPoP` when the request carried a valid DPoP proof: the access token then
/// holds `cnf.jkt` and goes as `Authorization: DPoP <token>` with a proof of the same key.
///
/// A session transfer token's answer (``issuedTokenType`` set, `token_type` `N_A`) has no
/// `scope`: an empty ``scope`` is left out.
public struct TokenResponse: Sendable, Hashable, Codable {
    public var accessToken: Secret
    public var tokenType: String
    public var expiresIn: Int
    public var scope: String
    public var idToken: Secret?
    public var refreshToken: Secret?
    /// The type of a token that is no access token (RFC 8693 §2.2.1): a session transfer token's.
    public var issuedTokenType: String?

    /// Creates an answer.
    public init(
        accessToken: Secret, tokenType: String = "Bearer", expiresIn: Int, scope: String, idToken: Secret?,
        refreshToken: Secret?, issuedTokenType: String? = nil
    ) {
        self.issuedTokenType = issuedTokenType
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
        case issuedTokenType = "issued_token_type"
    }

    /// Encodes the answer as the tenant's writer does: an empty ``scope`` left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encode(tokenType, forKey: .tokenType)
        try container.encode(expiresIn, forKey: .expiresIn)
        if !scope.isEmpty { try container.encode(scope, forKey: .scope) }
        try container.encodeIfPresent(idToken, forKey: .idToken)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(issuedTokenType, forKey: .issuedTokenType)
    }
}
