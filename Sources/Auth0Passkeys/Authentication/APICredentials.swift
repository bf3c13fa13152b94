public import FoundationEssentials

/// An access token for one API (audience), obtained by exchanging the refresh token (spec §6.4,
/// Auth0's Multi-Resource Refresh Token): for example a My Account token with the scope
/// `create:me:authentication_methods`.
///
/// The description and mirror show no token.
public struct APICredentials: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
    /// The access token for the API.
    public let accessToken: String
    /// `Bearer`, or `DPoP`.
    public let tokenType: String
    /// When the access token expires.
    public let expiresAt: Date
    /// The granted scopes; `""` when the server sent none.
    public let scope: String

    /// Creates API credentials.
    ///
    /// - Parameters:
    ///   - accessToken: the access token.
    ///   - tokenType: the token type.
    ///   - expiresAt: when it expires.
    ///   - scope: the granted scopes.
    public init(accessToken: String, tokenType: String, expiresAt: Date, scope: String) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.scope = scope
    }

    /// The API credentials of a refresh-token exchange's answer, as the SDK builds them.
    ///
    /// - Parameter credentials: the answer of
    ///   ``Authentication/renew(withRefreshToken:audience:scope:clientAuthentication:)`` with an audience.
    public init(_ credentials: Credentials) {
        self.init(
            accessToken: credentials.accessToken, tokenType: credentials.tokenType,
            expiresAt: credentials.expiresAt, scope: credentials.scope ?? "")
    }

    /// The storage form of the SDK: `expires_in` holds the expiry as seconds since 1970.
    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresAt = "expires_in"
        case scope
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        expiresAt = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .expiresAt))
        scope = try container.decodeIfPresent(String.self, forKey: .scope) ?? ""
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encode(tokenType, forKey: .tokenType)
        try container.encode(expiresAt.timeIntervalSince1970, forKey: .expiresAt)
        try container.encode(scope, forKey: .scope)
    }

    public var description: String {
        "APICredentials(tokenType: \(tokenType), expiresAt: \(expiresAt), scope: \(scope), accessToken: <redacted>)"
    }

    public var customMirror: Mirror { Mirror(self, children: []) }
}
