import Auth0Passkeys
import Foundation

/// Who a session belongs to and until when its access token is valid, as the Auth0 commands
/// print it; the tokens themselves only when asked (`--show-tokens`, `--json`).
struct SessionReport: Encodable {
    struct User: Encodable {
        let sub: String
        let email: String?
        let name: String?

        init(_ user: UserInfo) {
            sub = user.sub
            email = user.email
            name = user.name
        }

        /// `ada@example.com (auth0|…)`.
        var text: String { "\(email ?? name ?? "the user") (\(sub))" }
    }

    struct Tokens: Encodable {
        let accessToken: String
        let idToken: String
        let refreshToken: String?
        let tokenType: String

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case idToken = "id_token"
            case refreshToken = "refresh_token"
            case tokenType = "token_type"
        }
    }

    let user: User
    let expiresAt: String
    let scope: String?
    /// `Bearer`, or `DPoP` for tokens bound to the session's key (`login --dpop`).
    let tokenType: String
    let tokens: Tokens?

    init(user: UserInfo, credentials: Credentials, showTokens: Bool) {
        self.user = User(user)
        expiresAt = Self.timestamp(credentials.expiresAt)
        scope = credentials.scope
        tokenType = credentials.tokenType
        tokens =
            showTokens
            ? Tokens(
                accessToken: credentials.accessToken, idToken: credentials.idToken,
                refreshToken: credentials.refreshToken, tokenType: credentials.tokenType) : nil
    }

    enum CodingKeys: String, CodingKey {
        case user, scope, tokens
        case expiresAt = "expires_at"
        case tokenType = "token_type"
    }

    /// The lines after the headline: expiry, then the tokens when shown.
    var details: String {
        var lines = ["access token valid until \(expiresAt)" + (scope.map { ", scope \($0)" } ?? "")]
        if tokenType.lowercased() == "dpop" {
            lines.append("tokens bound to the session's DPoP key (token_type DPoP)")
        }
        if let tokens {
            lines.append("access_token  \(tokens.accessToken)")
            lines.append("id_token      \(tokens.idToken)")
            if let refresh = tokens.refreshToken { lines.append("refresh_token \(refresh)") }
        }
        return lines.joined(separator: "\n")
    }

    /// RFC 3339 UTC, seconds.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
