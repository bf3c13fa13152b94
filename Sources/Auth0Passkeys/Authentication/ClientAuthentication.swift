import FoundationEssentials
import WebAuthn

/// How the application authenticates itself at the token and revocation endpoints: when it
/// exchanges an authorization code, refreshes, or revokes a refresh token (RFC 6749 §2.3, §4.1.3,
/// §6; RFC 7009 §2.1; OpenID Connect Core 1.0 §9 `token_endpoint_auth_method`).
///
/// A native app or a single-page app is a public client (RFC 6749 §2.1): it holds no secret and
/// proves the exchange with PKCE alone (``none``). A regular web application runs on a server
/// that keeps a client secret, and presents it either in the body (``clientSecretPost(_:)``) or
/// in `Authorization: Basic` (``clientSecretBasic(_:)``), whichever its application is set to at
/// the tenant (Auth0's default for a regular web app is `client_secret_post`):
///
/// ```
/// Authorization: Basic base64(urlencode(client_id) ":" urlencode(client_secret))
/// ```
///
/// A confidential client authenticates at every one of those requests, so the same value goes to
/// ``WebAuth/clientAuthentication(_:)`` (the code exchange) and to ``CredentialsManager`` (its
/// renewals, exchanges and revocation); the tenant refuses a refresh or revocation without it
/// (401: `invalid_client` from the local tenant, `access_denied` from Auth0). The secret never
/// prints (``ClientSecret``), and the wire trace redacts `Authorization` and `client_secret`.
public enum ClientAuthentication: Sendable, Hashable {
    /// A public client: `client_id` in the body, no secret (`none`).
    case none
    /// `client_id` and `client_secret` in the body (`client_secret_post`, RFC 6749 §2.3.1).
    case clientSecretPost(ClientSecret)
    /// `Authorization: Basic` with the form-urlencoded ID and secret (`client_secret_basic`, RFC
    /// 6749 §2.3.1, Appendix B); the body's `client_id` names the same client.
    case clientSecretBasic(ClientSecret)

    /// The `client_secret` body member, for ``clientSecretPost(_:)`` only.
    var bodySecret: String? {
        if case .clientSecretPost(let secret) = self { secret.text } else { nil }
    }

    /// The `Authorization` header of `clientID`, for ``clientSecretBasic(_:)`` only.
    ///
    /// Each of ID and secret is `application/x-www-form-urlencoded` before the two are joined by a
    /// colon (RFC 6749 §2.3.1): ``PercentEncoding`` leaves only the unreserved characters as they
    /// are, a subset of what a form decoder reads back unchanged (a space is `%20`, a `+` is `%2B`).
    func headers(clientID: String) -> [(name: String, value: String)] {
        guard case .clientSecretBasic(let secret) = self else { return [] }
        let credentials = PercentEncoding.encode(clientID) + ":" + PercentEncoding.encode(secret.text)
        return [(name: "Authorization", value: "Basic " + Data(credentials.utf8).base64EncodedString())]
    }
}
