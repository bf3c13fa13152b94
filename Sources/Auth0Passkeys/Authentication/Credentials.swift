public import FoundationEssentials

/// The tokens an Auth0 token request returns (spec §3.5): from the webauthn grant of a passkey
/// signup or login, or from a refresh.
///
/// It is `Codable` in two forms. It decodes a token response:
///
/// ```
/// { "access_token": "…", "token_type": "Bearer", "expires_in": 86400, "id_token": "…",
///   "refresh_token": "…", "scope": "openid profile email offline_access" }
/// ```
///
/// as leniently as the SDK: every member is optional (a missing token reads as `""`, a missing
/// or non-finite `expires_in` as "expired now"), and `expires_in`, counted from the moment of
/// decoding, may be a number or a numeric string. It encodes, and decodes again, the stored form a
/// ``CredentialsManager`` keeps, where the expiry is absolute:
///
/// ```
/// { "access_token": "…", "token_type": "Bearer", "id_token": "…", "refresh_token": "…",
///   "expires_at": 1767225600.5, "scope": "…", "recovery_code": "…" }
/// ```
///
/// `expires_at` is seconds since 1970; `refresh_token`, `scope` and `recovery_code` are omitted
/// when `nil`. An object with `expires_at` is read as the stored form, whose other three
/// members are then required; any other object as a token response.
///
/// The description and mirror show no token.
public struct Credentials: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
    /// `access_token`.
    public let accessToken: String
    /// `token_type`: `Bearer`, or `DPoP` for a DPoP-bound token.
    public let tokenType: String
    /// `id_token`: an OIDC ID token (a JWT) when `openid` was granted.
    public let idToken: String
    /// `refresh_token`, when `offline_access` was granted.
    public let refreshToken: String?
    /// When the access token expires: the time of the response plus `expires_in`.
    public let expiresAt: Date
    /// `scope`: the scopes granted.
    public let scope: String?
    /// `recovery_code`: only from multi-factor enrollment.
    public let recoveryCode: String?

    /// Creates credentials.
    ///
    /// - Parameters:
    ///   - accessToken: the access token.
    ///   - tokenType: the token type.
    ///   - idToken: the ID token.
    ///   - refreshToken: the refresh token, if any.
    ///   - expiresAt: when the access token expires.
    ///   - scope: the granted scopes.
    ///   - recoveryCode: a multi-factor recovery code.
    public init(
        accessToken: String = "", tokenType: String = "", idToken: String = "", refreshToken: String? = nil,
        expiresAt: Date = Date(), scope: String? = nil, recoveryCode: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.scope = scope
        self.recoveryCode = recoveryCode
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case idToken = "id_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
        case expiresAt = "expires_at"
        case scope
        case recoveryCode = "recovery_code"
    }

    /// Decodes the stored form (with `expires_at`) or a token response (see ``Credentials``).
    ///
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when the value is not an object, or when a stored form lacks
    ///   `access_token`, `token_type` or `id_token` or has a member of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.expiresAt) {
            accessToken = try container.decode(String.self, forKey: .accessToken)
            tokenType = try container.decode(String.self, forKey: .tokenType)
            idToken = try container.decode(String.self, forKey: .idToken)
            refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
            expiresAt = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .expiresAt))
            scope = try container.decodeIfPresent(String.self, forKey: .scope)
            recoveryCode = try container.decodeIfPresent(String.self, forKey: .recoveryCode)
        } else {
            let now = Date()
            accessToken = container.lenient(String.self, .accessToken) ?? ""
            tokenType = container.lenient(String.self, .tokenType) ?? ""
            idToken = container.lenient(String.self, .idToken) ?? ""
            refreshToken = container.lenient(String.self, .refreshToken)
            scope = container.lenient(String.self, .scope)
            recoveryCode = container.lenient(String.self, .recoveryCode)
            expiresAt = now.addingTimeInterval(container.lenientSeconds(.expiresIn) ?? 0)
        }
    }

    /// Encodes the stored form: `expires_at` as seconds since 1970, `nil` members omitted.
    ///
    /// - Parameter encoder: the encoder.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encode(tokenType, forKey: .tokenType)
        try container.encode(idToken, forKey: .idToken)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encode(expiresAt.timeIntervalSince1970, forKey: .expiresAt)
        try container.encodeIfPresent(scope, forKey: .scope)
        try container.encodeIfPresent(recoveryCode, forKey: .recoveryCode)
    }

    public var description: String {
        "Credentials(tokenType: \(tokenType), expiresAt: \(expiresAt), scope: \(scope ?? "nil"), "
            + "accessToken: <redacted>, idToken: <redacted>, refreshToken: \(refreshToken == nil ? "nil" : "<redacted>"))"
    }

    public var customMirror: Mirror { Mirror(self, children: []) }
}
