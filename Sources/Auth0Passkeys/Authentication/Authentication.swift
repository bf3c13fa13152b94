import FoundationEssentials
public import Logging
import WebAuthn

/// Auth0's Authentication API for native passkey flows: signup and login challenges, the
/// webauthn grant, refresh, revoke, user info and API credentials (spec §1–§3, §6), with the
/// names and defaults of Auth0.swift.
///
/// Each method returns a ``Request``; nothing is sent until its `start()`.
///
/// Sign a new user up with a passkey:
///
/// ```swift
/// let auth = Authentication(clientId: "k3S9pQ2vXc7LmN0aB1dE4fG6hJ8", domain: "login.example.com")
/// let challenge = try await auth.passkeySignupChallenge(email: "ada@example.com").start()
/// let passkey: some SignupPasskey = try await authenticator.register(
///     provider.createCredentialRegistrationRequest(
///         challenge: challenge.challengeData, name: challenge.userName, userID: challenge.userId))
/// let credentials = try await auth.login(passkey: passkey, challenge: challenge).start()
/// ```
///
/// Sign in with it later:
///
/// ```swift
/// let challenge = try await auth.passkeyLoginChallenge().start()
/// let passkey: some LoginPasskey = try await authenticator.assert(
///     provider.createCredentialAssertionRequest(challenge: challenge.challengeData))
/// let credentials = try await auth.login(passkey: passkey, challenge: challenge).start()
/// ```
///
/// Every request carries `Content-Type: application/json` and `Auth0-Client` (spec §8). The
/// challenge, user-info, JWKS, refresh and revoke requests are retried after a retryable failure
/// (``RetryPolicy``); the webauthn grant never is, because its `auth_session` is single-use.
public struct Authentication: Sendable {
    /// The scope of the webauthn grant when the caller gives none: Auth0.swift 3's, which asks
    /// for a refresh token.
    public static let defaultScope = "openid profile email offline_access"

    /// The application's client ID.
    public let clientId: String
    /// The tenant's base URL, ending in `/`.
    public var url: String { endpoint.url }
    /// The DPoP key and nonce the token requests sign with, once ``useDPoP(_:)`` is called.
    public private(set) var dpop: DPoP?
    /// The tenant, and what every request goes through.
    let endpoint: APIEndpoint

    /// Creates a client for a tenant domain, as Auth0.swift does: `https://` is put in front
    /// unless the domain already begins with `https`.
    ///
    /// - Parameters:
    ///   - clientId: the application's client ID.
    ///   - domain: the tenant's (custom) domain, such as `login.example.com`.
    ///   - transport: what sends each request: a ``CurlTransport`` by default (share one between
    ///     clients to share its connections), or any other ``HTTPTransport``.
    ///   - retryPolicy: when to send a safe request again.
    ///   - clientInfo: the `Auth0-Client` header's content, or `nil` to send none.
    ///   - logger: where to log requests (method, path, status, timing; redacted bodies at
    ///     `trace`); nothing is logged by default.
    public init(
        clientId: String,
        domain: String,
        transport: any HTTPTransport = CurlTransport(),
        retryPolicy: RetryPolicy = RetryPolicy(),
        clientInfo: Auth0ClientInfo? = Auth0ClientInfo(),
        logger: Logger? = nil
    ) {
        self.init(
            clientId: clientId,
            endpoint: APIEndpoint(
                url: BaseURL.fromDomain(domain),
                client: HTTPClient(
                    transport: transport, retryPolicy: retryPolicy, clientInfo: clientInfo, logger: logger)))
    }

    /// Creates a client for an explicit base URL, such as a local tenant's
    /// `http://127.0.0.1:8080`.
    ///
    /// - Parameters:
    ///   - clientId: the application's client ID.
    ///   - baseURL: `https://…`, or `http://…` to a loopback host only.
    ///   - transport: what sends each request: a ``CurlTransport`` by default, or any other
    ///     ``HTTPTransport``.
    ///   - retryPolicy: when to send a safe request again.
    ///   - clientInfo: the `Auth0-Client` header's content, or `nil` to send none.
    ///   - logger: where to log requests; nothing is logged by default.
    /// - Throws: ``AuthenticationError/Code/invalidConfiguration`` for any other URL.
    public init(
        clientId: String,
        baseURL: String,
        transport: any HTTPTransport = CurlTransport(),
        retryPolicy: RetryPolicy = RetryPolicy(),
        clientInfo: Auth0ClientInfo? = Auth0ClientInfo(),
        logger: Logger? = nil
    ) throws(AuthenticationError) {
        try self.init(
            clientId: clientId, baseURL: baseURL,
            client: HTTPClient(
                transport: transport, retryPolicy: retryPolicy, clientInfo: clientInfo, logger: logger))
    }

    /// Creates a client over a prepared ``HTTPClient`` (its retry waits and jitter injected): the
    /// seam of the tests.
    package init(clientId: String, baseURL: String, client: HTTPClient) throws(AuthenticationError) {
        let url = try AuthenticationError.validated(baseURL: baseURL)
        self.init(clientId: clientId, endpoint: APIEndpoint(url: url, client: client))
    }

    private init(clientId: String, endpoint: APIEndpoint) {
        self.clientId = clientId
        self.endpoint = endpoint
    }

    /// This client with DPoP (RFC 9449; spec §16): Auth0.swift's `useDPoP()`.
    ///
    /// Every token request then carries a proof: a grant other than `refresh_token` always
    /// (making the key on the first), a refresh once the key exists; `/userinfo` does for a
    /// `DPoP` token. Revoke and the passkey challenges never do (spec §16.1).
    ///
    /// - Parameter dpop: the key and nonce to use; a new one, whose key is made at the first
    ///   token request, by default. One per session: two users never share one.
    /// - Returns: the client with DPoP.
    public func useDPoP(_ dpop: DPoP = DPoP()) -> Authentication {
        var copy = self
        copy.dpop = dpop
        return copy
    }

    /// A POST of a JSON body to a path under the base URL, authenticated as `client` says (the one
    /// place that applies a ``ClientAuthentication``: `client_secret` in the body, or
    /// `Authorization: Basic`; RFC 6749 §2.3.1); with DPoP, `/oauth/token` carries a proof, as
    /// Auth0.swift decides it: for any grant but `refresh_token`, and for that one once the key
    /// exists.
    func post<Value: Sendable>(
        _ path: String, _ body: some Encodable, authenticating client: ClientAuthentication = .none,
        retryable: Bool, _ handle: @escaping @Sendable (HTTPResponse) throws(AuthenticationError) -> Value
    ) -> Request<Value, AuthenticationError> {
        var members = JSONObject.members(of: body)
        if let secret = client.bodySecret {
            members["client_secret"] = .string(secret)
        }
        var signer: DPoPSigner?
        if let dpop, path == "oauth/token" {
            signer = DPoPSigner(
                dpop: dpop, rule: members["grant_type"]?.stringValue == "refresh_token" ? .existingKey : .makingKey)
        }
        return endpoint.request(
            .post, path, body: members, headers: client.headers(clientID: clientId), retryable: retryable,
            dpop: signer, handle)
    }

    /// Decodes a token response as it arrives, so that `expires_in` counts from that moment.
    static let credentials = ResponseHandling.json(Credentials.self, AuthenticationError.self)
}
