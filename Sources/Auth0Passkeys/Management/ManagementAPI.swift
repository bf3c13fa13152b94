public import Logging
import WebAuthn

/// Auth0's Management API (`https://DOMAIN/api/v2`), the part that seeds test users who already
/// hold passkeys: users (create, read, find by email, delete) and their authentication methods
/// (list, attach a passkey, delete) (spec §15); and organization invitations (create, list, read,
/// delete; ``organizations``, scopes `create:`, `read:` and `delete:organization_invitations`).
///
/// It needs a Management API access token, which a machine-to-machine application gets with
/// ``Authentication/clientCredentials(clientSecret:audience:)`` for the audience
/// `https://DOMAIN/api/v2/`, with the scopes of the calls (`create:users`, `read:users`,
/// `delete:users`, `create:authentication_methods`, `read:authentication_methods`,
/// `delete:authentication_methods`).
///
/// ```swift
/// let m2m = Authentication(clientId: m2mClientID, domain: "tenant.auth0.com")
/// let token = try await m2m.clientCredentials(
///     clientSecret: ClientSecret(secret), audience: "https://tenant.auth0.com/api/v2/").start()
/// let management = ManagementAPI(token: token.accessToken, domain: "tenant.auth0.com")
/// let user = try await management.users.create(
///     NewManagementUser(connection: "Username-Password-Authentication", email: "ada@example.com")).start()
/// let method = try await management.authenticationMethods.create(passkey, forUser: user.userId).start()
/// ```
///
/// Requests go through the same ``HTTPTransport``, retry policy and redacted trace as
/// ``Authentication`` and ``MyAccount``. User and method IDs are percent-encoded as one path
/// segment each (`auth0|65f0…` is sent as `auth0%7C65f0…`). The description and mirror show no
/// token.
public struct ManagementAPI: TokenAuthorizedAPI, CustomStringConvertible, CustomReflectable {
    package typealias Failure = ManagementAPIError
    package static let path = "api/v2"

    /// The API's base URL, `https://DOMAIN/api/v2`, without a final `/`.
    public var url: String { endpoint.url }
    /// The access token sent as `Authorization: <tokenType> <token>`.
    public let token: String
    /// The authorization scheme: `Bearer`.
    public let tokenType: String
    /// The API, and what every request goes through.
    let endpoint: APIEndpoint

    /// Creates a client for a tenant domain, as Auth0's SDKs do: `https://` is put in front
    /// unless the domain already begins with `https`.
    ///
    /// - Parameters:
    ///   - token: a Management API access token.
    ///   - domain: the tenant's domain.
    ///   - tokenType: the authorization scheme; `Bearer` by default.
    ///   - transport: what sends each request: a ``CurlTransport`` by default, or any other
    ///     ``HTTPTransport``.
    ///   - retryPolicy: when to send a safe request again.
    ///   - clientInfo: the `Auth0-Client` header's content, or `nil` to send none.
    ///   - logger: where to log requests; nothing is logged by default.
    public init(
        token: String, domain: String, tokenType: String = "Bearer", transport: any HTTPTransport = CurlTransport(),
        retryPolicy: RetryPolicy = RetryPolicy(), clientInfo: Auth0ClientInfo? = Auth0ClientInfo(),
        logger: Logger? = nil
    ) {
        self.init(
            token: token, tokenType: tokenType, domain: domain,
            client: HTTPClient(
                transport: transport, retryPolicy: retryPolicy, clientInfo: clientInfo, logger: logger))
    }

    /// Creates a client for an explicit tenant base URL, such as a local tenant's
    /// `http://127.0.0.1:8080`; the API is at `<baseURL>/api/v2`.
    ///
    /// - Parameters:
    ///   - token: a Management API access token.
    ///   - baseURL: `https://…`, or `http://…` to a loopback host only.
    ///   - tokenType: the authorization scheme; `Bearer` by default.
    ///   - transport: what sends each request: a ``CurlTransport`` by default, or any other
    ///     ``HTTPTransport``.
    ///   - retryPolicy: when to send a safe request again.
    ///   - clientInfo: the `Auth0-Client` header's content, or `nil` to send none.
    ///   - logger: where to log requests; nothing is logged by default.
    /// - Throws: ``ManagementAPIError`` with ``AuthenticationError/Code/invalidConfiguration`` for
    ///   any other URL.
    public init(
        token: String, baseURL: String, tokenType: String = "Bearer", transport: any HTTPTransport = CurlTransport(),
        retryPolicy: RetryPolicy = RetryPolicy(), clientInfo: Auth0ClientInfo? = Auth0ClientInfo(),
        logger: Logger? = nil
    ) throws(ManagementAPIError) {
        try self.init(
            token: token, tokenType: tokenType, baseURL: baseURL,
            client: HTTPClient(
                transport: transport, retryPolicy: retryPolicy, clientInfo: clientInfo, logger: logger))
    }

    /// Keeps what ``TokenAuthorizedAPI`` built.
    package init(token: String, tokenType: String, endpoint: APIEndpoint) {
        self.token = token
        self.tokenType = tokenType
        self.endpoint = endpoint
    }

    /// The user calls (spec §15.2).
    public var users: ManagementUsers { ManagementUsers(api: self) }

    /// The authentication-method calls (spec §15.3).
    public var authenticationMethods: ManagementAuthenticationMethods { ManagementAuthenticationMethods(api: self) }

    /// The organization invitation calls.
    public var organizations: ManagementOrganizations { ManagementOrganizations(api: self) }

    /// A request to a path under ``url`` with the `Authorization` header; on a GET, `body` is the
    /// query.
    func request<Value: Sendable>(
        _ method: HTTPRequest.Method, _ path: String, body: [String: JSONValue]? = nil, retryable: Bool,
        _ handle: @escaping @Sendable (HTTPResponse) throws(ManagementAPIError) -> Value
    ) -> Request<Value, ManagementAPIError> {
        endpoint.request(method, path, body: body, retryable: retryable, handle)
    }

    /// An ID as one path segment: every byte but the unreserved ones percent-encoded, so that
    /// `auth0|65f0…` and `passkey|dev_…` reach the right route (spec §15.2, §15.3).
    static func segment(_ id: String) -> String {
        PercentEncoding.encode(id)
    }

    public var description: String { "ManagementAPI(url: \(url), token: <redacted>)" }

    public var customMirror: Mirror { Mirror(self, children: []) }
}
