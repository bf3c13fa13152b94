public import FoundationEssentials

/// A session transfer token, for web single sign-on from a native login (Auth0's Native to Web
/// SSO): what ``Authentication/ssoCredentials(withRefreshToken:clientAuthentication:)`` and
/// ``CredentialsManager/ssoCredentials(parameters:headers:)`` return, as Auth0.swift's
/// `SSOCredentials`.
///
/// Open the web application with it, once and within ``expiresAt``: as the
/// `session_transfer_token` query parameter of its `/authorize` request, or as the
/// `auth0_session_transfer_token` cookie on the tenant's domain. It decodes the token answer:
///
/// ```
/// { "access_token": "<session transfer token>", "token_type": "N_A",
///   "issued_token_type": "urn:auth0:params:oauth:token-type:session_transfer_token",
///   "expires_in": 60, "id_token"?: "…", "refresh_token"?: "<rotated>" }
/// ```
///
/// The description and mirror show no token.
public struct SSOCredentials: Sendable, Hashable, Decodable, CustomStringConvertible, CustomReflectable {
    /// The session transfer token (the answer's `access_token`).
    public let sessionTransferToken: String
    /// `token_type`: `N_A`, the token is no access token.
    public let tokenType: String
    /// `issued_token_type`: `urn:auth0:params:oauth:token-type:session_transfer_token`.
    public let issuedTokenType: String
    /// When the token expires: the time of the answer plus `expires_in`.
    public let expiresAt: Date
    /// An ID token, when the tenant sends one.
    public let idToken: String?
    /// The rotated refresh token, when the tenant rotates it: store it in place of the old one
    /// (``CredentialsManager/ssoCredentials(parameters:headers:)`` does).
    public let refreshToken: String?

    /// Creates SSO credentials.
    ///
    /// - Parameters:
    ///   - sessionTransferToken: the token.
    ///   - tokenType: its token type.
    ///   - issuedTokenType: its issued token type.
    ///   - expiresAt: when it expires.
    ///   - idToken: an ID token, if any.
    ///   - refreshToken: the rotated refresh token, if any.
    public init(
        sessionTransferToken: String, tokenType: String, issuedTokenType: String, expiresAt: Date,
        idToken: String? = nil, refreshToken: String? = nil
    ) {
        self.sessionTransferToken = sessionTransferToken
        self.tokenType = tokenType
        self.issuedTokenType = issuedTokenType
        self.expiresAt = expiresAt
        self.idToken = idToken
        self.refreshToken = refreshToken
    }

    private enum CodingKeys: String, CodingKey {
        case sessionTransferToken = "access_token"
        case tokenType = "token_type"
        case issuedTokenType = "issued_token_type"
        case expiresIn = "expires_in"
        case idToken = "id_token"
        case refreshToken = "refresh_token"
    }

    /// Decodes the token answer; `expires_in` may be a number or a numeric string, as the SDK
    /// reads it, counted from now.
    ///
    /// - Throws: `DecodingError` when the token, a type or `expires_in` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sessionTransferToken = try container.decode(String.self, forKey: .sessionTransferToken)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        issuedTokenType = try container.decode(String.self, forKey: .issuedTokenType)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        guard let seconds = container.lenientSeconds(.expiresIn) else {
            throw DecodingError.dataCorruptedError(
                forKey: .expiresIn, in: container, debugDescription: "Format of expires_in is not recognized.")
        }
        expiresAt = Date().addingTimeInterval(seconds)
    }

    /// The `/authorize` parameter that carries ``sessionTransferToken``.
    public static let queryParameter = "session_transfer_token"
    /// The cookie that carries it, on the tenant's domain.
    public static let cookieName = "auth0_session_transfer_token"

    public var description: String {
        "SSOCredentials(tokenType: \(tokenType), issuedTokenType: \(issuedTokenType), expiresAt: \(expiresAt), "
            + "sessionTransferToken: <redacted>, refreshToken: \(refreshToken == nil ? "nil" : "<redacted>"))"
    }

    public var customMirror: Mirror { Mirror(self, children: []) }
}
