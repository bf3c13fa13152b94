import FoundationEssentials
public import Logging
public import WebAuthn

/// The embedded SDK's client of a passkey identity provider's authenticate URL: what an app does
/// when the provider, instead of showing a login page, sends the browser to the app's **invoke
/// URL** with an authenticate URL (the flow of Beyond Identity's embedded SDK, as the local
/// tenant serves it: README, "The local tenant as a passkey provider (embedded mode)").
///
/// The wire, all JSON:
///
/// ```
/// INVOKE_URL?url=<percent-encoded authenticate URL>           (the provider's 302 to the app)
/// authenticate URL = <provider origin>/embedded/authenticate?request=<secret>
///
/// GET  <authenticate URL>   Accept: application/json
///   → 200 {"publicKey": PublicKeyCredentialRequestOptionsJSON}    (WebAuthn L3 §5.1.10; a fresh
///                                                                 challenge on each GET)
/// POST <authenticate URL>   {"credential": AuthenticationResponseJSON}
///   → 200 {"redirectUrl": "<provider origin>/embedded/continue?request=<one-time secret>"}
/// POST <authenticate URL>   {"error": "access_denied"}          (the user cancelled)
///   → 200 {"redirectUrl": "<the provider client's redirect_uri>?error=access_denied&…"}
/// errors → 400 {"error": "invalid_request" | "invalid_grant", "error_description": "…"}
/// ```
///
/// The `request` parameter is the capability (no cookie, no `Origin` check), so it is a secret:
/// logs name the path only, the redirect URL's member is redacted (`WireRedactor`), and no
/// error's description repeats either URL. The app opens the returned redirect URL in the same
/// cookie store as the first web session, which brings the flow back through the provider to
/// the app's own callback.
///
/// ```swift
/// let embedded = EmbeddedAuthentication()
/// guard EmbeddedAuthentication.isAuthenticateURL(url) else { return }
/// let options = try await embedded.options(url: url)
/// let assertion = try await authenticator.get(options)  // navigator.credentials.get, origin https://<rpId>
/// let redirectURL = try await embedded.complete(url: url, credential: assertion)
/// ```
///
/// PasskeyKit's `authenticate(url:passkey:)` does the three steps with any authenticator.
public struct EmbeddedAuthentication: Sendable {
    private let client: HTTPClient

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: what sends each request; share the app's to share its connections.
    ///   - logger: where to log requests (method, path, status; redacted bodies at `trace`);
    ///     nothing by default.
    public init(transport: any HTTPTransport = CurlTransport(), logger: Logger? = nil) {
        self.init(client: HTTPClient(transport: transport, clientInfo: nil, logger: logger))
    }

    /// Creates a client over a prepared ``HTTPClient``: the seam of the tests and of the user
    /// agents that already hold one.
    package init(client: HTTPClient) {
        self.client = client
    }

    /// Whether `url` is an authenticate URL: an absolute `http` or `https` URL whose path ends in
    /// `/embedded/authenticate` and whose query has exactly one non-empty `request`.
    ///
    /// - Parameter url: the URL the invoke URL was given.
    /// - Returns: whether ``options(url:)`` and ``complete(url:credential:)`` may be called with it.
    public static func isAuthenticateURL(_ url: String) -> Bool {
        guard let separator = url.firstRange(of: "://"),
            ["http", "https"].contains(url[..<separator.lowerBound].lowercased())
        else { return false }
        let rest = url[separator.upperBound...].prefix { $0 != "#" }
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        guard !authority.isEmpty else { return false }
        let path = rest.dropFirst(authority.count).prefix { $0 != "?" }
        guard path.hasSuffix("/embedded/authenticate") else { return false }
        let query = rest.dropFirst(authority.count + path.count).dropFirst()
        let requests = query.split(separator: "&").compactMap { item -> Substring? in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return PercentEncoding.decode(String(pair[0])) == "request" ? (pair.count > 1 ? pair[1] : "") : nil
        }
        return requests.count == 1 && !requests[0].isEmpty
    }

    /// The authenticate URL a redirect to the app's invoke URL carries (its `url` parameter),
    /// when `url` is at `invokeURL` (the same text before the query) and that parameter is an
    /// authenticate URL (``isAuthenticateURL(_:)``).
    ///
    /// - Parameters:
    ///   - url: where the browser is being sent.
    ///   - invokeURL: the app's invoke URL, as the provider's client registers it.
    /// - Returns: the authenticate URL, or `nil` when `url` is not an invocation.
    public static func authenticateURL(invoking url: String, invokeURL: String) -> String? {
        guard let invocation = WebAuthCallback(url, redirectURL: invokeURL), let target = invocation["url"],
            isAuthenticateURL(target)
        else { return nil }
        return target
    }

    /// `GET <authenticate URL>`: the request options of the pending login, with a fresh
    /// challenge (WebAuthn L3 §5.1.10; discoverable, no `allowCredentials`).
    ///
    /// - Parameter url: an authenticate URL.
    /// - Returns: the options to sign with a passkey of the provider's RP ID.
    /// - Throws: ``AuthenticationError``: ``AuthenticationError/Code/invalidConfiguration`` for a
    ///   URL that is not an authenticate URL (or plain `http` to a host that is not loopback);
    ///   the provider's `invalid_request` for an unknown, expired or spent `request`; status 0
    ///   with the ``TransportError`` when no answer came.
    public func options(url: String) async throws(AuthenticationError) -> PublicKeyCredentialRequestOptionsJSON {
        try Self.check(url)
        let answer: OptionsAnswer = try await send(.get, url, body: nil, retryable: true)
        return answer.publicKey
    }

    /// `POST <authenticate URL>` with the assertion (`PublicKeyCredential.toJSON()`, WebAuthn
    /// L3 §5.1.10): the URL that resumes the flow at the provider. The pending challenge is spent
    /// by this call, good or bad.
    ///
    /// - Parameters:
    ///   - url: the authenticate URL whose options were signed.
    ///   - credential: the assertion.
    /// - Returns: the redirect URL to open in the same cookie store (`/embedded/continue?request=…`).
    /// - Throws: ``AuthenticationError``: `invalid_grant` when the assertion fails verification,
    ///   `invalid_request` for a spent or unknown `request`, and as ``options(url:)``.
    public func complete(url: String, credential: AuthenticationResponseJSON) async throws(AuthenticationError)
        -> String
    {
        try Self.check(url)
        let answer: RedirectAnswer = try await send(
            .post, url, body: JSONObject.members(of: CompleteBody(credential: credential)), retryable: false)
        return answer.redirectUrl
    }

    /// `POST <authenticate URL>` with `{"error": "access_denied"}`: the user cancelled; the
    /// provider ends its login and answers the redirect that tells its client so (RFC 6749
    /// §4.1.2.1).
    ///
    /// - Parameter url: the authenticate URL.
    /// - Returns: the redirect URL to open: the provider client's `redirect_uri` with
    ///   `error=access_denied`.
    /// - Throws: ``AuthenticationError``, as ``complete(url:credential:)``.
    public func cancel(url: String) async throws(AuthenticationError) -> String {
        try Self.check(url)
        let answer: RedirectAnswer = try await send(
            .post, url, body: ["error": .string("access_denied")], retryable: false)
        return answer.redirectUrl
    }

    /// Refuses what is not an authenticate URL, and plain `http` beyond loopback (the assertion
    /// and the secret would cross the network in the clear), without repeating the URL.
    private static func check(_ url: String) throws(AuthenticationError) {
        guard isAuthenticateURL(url) else {
            throw .invalidConfiguration("The URL is not an authenticate URL (…/embedded/authenticate?request=…).")
        }
        guard case .success = BaseURL.validated(url) else {
            throw .invalidConfiguration("An authenticate URL is https, or plain http to a loopback host only.")
        }
    }

    /// One exchange through ``Request``, its answer decoded.
    private func send<Answer: Decodable & Sendable>(
        _ method: HTTPRequest.Method, _ url: String, body: [String: JSONValue]?, retryable: Bool
    ) async throws(AuthenticationError) -> Answer {
        try await Request(
            client: client, method: method, url: url, body: body,
            headers: [(name: "Accept", value: "application/json")], retryable: retryable,
            handle: ResponseHandling.json(Answer.self, AuthenticationError.self)
        ).start()
    }

    /// `{"credential": …}`.
    private struct CompleteBody: Encodable {
        let credential: AuthenticationResponseJSON
    }

    /// `{"publicKey": …}`.
    private struct OptionsAnswer: Decodable, Sendable {
        let publicKey: PublicKeyCredentialRequestOptionsJSON
    }

    /// `{"redirectUrl": …}`.
    private struct RedirectAnswer: Decodable, Sendable {
        let redirectUrl: String
    }
}
