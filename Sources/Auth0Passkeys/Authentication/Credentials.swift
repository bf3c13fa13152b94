public import FoundationEssentials

/// The tokens an Auth0 token request returns (spec §3.5): from the webauthn grant of a passkey
/// signup or login, or from a refresh.
///
/// ```
/// { "access_token": "…", "token_type": "Bearer", "expires_in": 86400, "id_token": "…",
///   "refresh_token": "…", "scope": "openid profile email offline_access" }
/// ```
///
/// Decoding is as lenient as the SDK: every member is optional (a missing token reads as `""`, a
/// missing `expires_in` as "expired now"), and `expires_in` may be a number or a numeric string.
///
/// The description and mirror show no token.
public struct Credentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
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

    public var description: String {
        "Credentials(tokenType: \(tokenType), expiresAt: \(expiresAt), scope: \(scope ?? "nil"), "
            + "accessToken: <redacted>, idToken: <redacted>, refreshToken: \(refreshToken == nil ? "nil" : "<redacted>"))"
    }

    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// A token response as sent (spec §3.5), before `expires_in` becomes a date.
struct TokenResponse: Decodable, Sendable {
    let accessToken: String?
    let tokenType: String?
    let idToken: String?
    let refreshToken: String?
    let expiresIn: Double?
    let scope: String?
    let recoveryCode: String?

    private enum Keys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case idToken = "id_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
        case scope
        case recoveryCode = "recovery_code"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        accessToken = container.lenient(String.self, .accessToken)
        tokenType = container.lenient(String.self, .tokenType)
        idToken = container.lenient(String.self, .idToken)
        refreshToken = container.lenient(String.self, .refreshToken)
        scope = container.lenient(String.self, .scope)
        recoveryCode = container.lenient(String.self, .recoveryCode)
        expiresIn =
            container.lenient(Double.self, .expiresIn)
            ?? container.lenient(String.self, .expiresIn).flatMap(Double.init)
    }

    /// The credentials, with `expires_in` counted from `now`.
    func credentials(at now: Date) -> Credentials {
        Credentials(
            accessToken: accessToken ?? "", tokenType: tokenType ?? "", idToken: idToken ?? "",
            refreshToken: refreshToken, expiresAt: now.addingTimeInterval(expiresIn ?? 0), scope: scope,
            recoveryCode: recoveryCode)
    }
}
