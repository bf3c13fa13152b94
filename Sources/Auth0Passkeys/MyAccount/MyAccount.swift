public import Logging
import WebAuthn

/// Auth0's My Account API (`https://DOMAIN/me/v1`): the signed-in user's own authentication
/// methods, such as enrolling one more passkey (spec §5).
///
/// It needs an access token for the audience `https://DOMAIN/me/` with the scopes of the calls
/// (`create:me:authentication_methods` to enroll, `read:…` to list, `delete:…` to delete), from
/// the webauthn grant with that audience or from
/// ``CredentialsManager/apiCredentials(forAudience:scope:minTTL:parameters:headers:)``.
///
/// ```swift
/// let myAccount = MyAccount(token: apiCredentials.accessToken, domain: "login.example.com")
/// let challenge = try await myAccount.authenticationMethods.passkeyEnrollmentChallenge().start()
/// let passkey: some NewPasskey = try await authenticator.register(
///     provider.createCredentialRegistrationRequest(
///         challenge: challenge.challengeData, name: challenge.userName, userID: challenge.userId))
/// let method = try await myAccount.authenticationMethods.enroll(passkey: passkey, challenge: challenge).start()
/// ```
///
/// The description and mirror show no token.
public struct MyAccount: TokenAuthorizedAPI, CustomStringConvertible, CustomReflectable {
    package typealias Failure = MyAccountError
    package static let path = "me/v1"

    /// The API's base URL, `https://DOMAIN/me/v1`, without a final `/`.
    public var url: String { endpoint.url }
    /// The access token sent as `Authorization: <tokenType> <token>`.
    public let token: String
    /// The authorization scheme: `Bearer`.
    public let tokenType: String
    /// The DPoP key a `DPoP` token is bound to, once ``useDPoP(_:)`` is called.
    public private(set) var dpop: DPoP?
    /// The API, and what every request goes through.
    let endpoint: APIEndpoint

    /// Creates a client for a tenant domain, as Auth0.swift does.
    ///
    /// - Parameters:
    ///   - token: an access token for `https://DOMAIN/me/`.
    ///   - domain: the tenant's (custom) domain; the same domain the token's audience names.
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
    /// `http://127.0.0.1:8080`; the API is at `<baseURL>/me/v1`.
    ///
    /// - Parameters:
    ///   - token: an access token for `<baseURL>/me/`.
    ///   - baseURL: `https://…`, or `http://…` to a loopback host only.
    ///   - tokenType: the authorization scheme; `Bearer` by default.
    ///   - transport: what sends each request: a ``CurlTransport`` by default, or any other
    ///     ``HTTPTransport``.
    ///   - retryPolicy: when to send a safe request again.
    ///   - clientInfo: the `Auth0-Client` header's content, or `nil` to send none.
    ///   - logger: where to log requests; nothing is logged by default.
    /// - Throws: ``MyAccountError`` with ``AuthenticationError/Code/invalidConfiguration`` for any
    ///   other URL.
    public init(
        token: String, baseURL: String, tokenType: String = "Bearer", transport: any HTTPTransport = CurlTransport(),
        retryPolicy: RetryPolicy = RetryPolicy(), clientInfo: Auth0ClientInfo? = Auth0ClientInfo(),
        logger: Logger? = nil
    ) throws(MyAccountError) {
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

    /// This client with DPoP (RFC 9449 §7; spec §16.1): with a `DPoP` ``tokenType``, each call
    /// sends `Authorization: DPoP <token>` and a proof carrying `ath`, signed with `dpop`'s key,
    /// and answers `use_dpop_nonce` once with the nonce the API sent.
    ///
    /// ```swift
    /// let api = try await manager.apiCredentials(forAudience: "https://login.example.com/me/")
    /// let myAccount = MyAccount(token: api.accessToken, domain: "login.example.com", tokenType: api.tokenType)
    ///     .useDPoP(manager.dpop)
    /// ```
    ///
    /// - Parameter dpop: the DPoP state whose key the token is bound to.
    /// - Returns: the client with DPoP.
    public func useDPoP(_ dpop: DPoP) -> MyAccount {
        var copy = self
        copy.dpop = dpop
        return copy
    }

    /// The authentication-methods calls.
    public var authenticationMethods: MyAccountAuthenticationMethods {
        MyAccountAuthenticationMethods(account: self)
    }

    /// A request to a path under ``url`` with the `Authorization` header.
    func request<Value: Sendable>(
        _ method: HTTPRequest.Method, _ path: String, body: [String: JSONValue]? = nil, retryable: Bool,
        _ handle: @escaping @Sendable (HTTPResponse) throws(MyAccountError) -> Value
    ) -> Request<Value, MyAccountError> {
        endpoint.request(
            method, path, body: body, retryable: retryable, dpop: dpop.map { DPoPSigner(dpop: $0, rule: .boundToken) },
            handle)
    }

    public var description: String { "MyAccount(url: \(url), token: <redacted>)" }

    public var customMirror: Mirror { Mirror(self, children: []) }
}
