import WebAuthn

/// One Auth0 API at its URL over one ``HTTPClient``: the core that ``Authentication``,
/// ``MyAccount`` and ``ManagementAPI`` are each built on, and the one place a client turns a
/// method, a path and a body into a ``Request``. Every request any client sends goes through it
/// (the JWKS and discovery fetches of ``IDTokenValidator`` too), so every one carries the headers
/// of spec §8 (`Content-Type`, `Auth0-Client`), is logged and redacted the same way, and is
/// retried only as ``RetryPolicy`` allows.
///
/// An API called with an access token (My Account, the Management API) has an `authorization`,
/// sent as `Authorization` on each of its calls; the Authentication API names its own per call.
package struct APIEndpoint: Sendable {
    /// The URL paths are appended to: a tenant's base URL, ending in `/`, or an API's under it
    /// (`…/me/v1`, `…/api/v2`).
    package let url: String
    /// The transport, retry policy, `Auth0-Client` header and logger.
    package let client: HTTPClient
    /// `<scheme> <token>` for every call, or `nil`.
    let authorization: String?

    /// An endpoint at `url`.
    ///
    /// - Parameters:
    ///   - url: an absolute URL, already checked (``BaseURL``).
    ///   - authorization: the `Authorization` value of every call, or `nil`.
    ///   - client: what sends.
    package init(url: String, authorization: String? = nil, client: HTTPClient) {
        self.url = url
        self.authorization = authorization
        self.client = client
    }

    /// A request to `path` under ``url``, with the `Authorization` of the endpoint, then
    /// `headers`; on a GET, `body` is the query.
    func request<Value: Sendable, Failure: Auth0APIError>(
        _ method: HTTPRequest.Method, _ path: String, body: [String: JSONValue]? = nil,
        headers: [(name: String, value: String)] = [], retryable: Bool, dpop: DPoPSigner? = nil,
        _ handle: @escaping @Sendable (HTTPResponse) throws(Failure) -> Value
    ) -> Request<Value, Failure> {
        Request(
            client: client, method: method, url: url + path, body: body,
            headers: (authorization.map { [(name: "Authorization", value: $0)] } ?? []) + headers,
            retryable: retryable, dpop: dpop, handle: handle)
    }

    /// `GET` of ``url`` itself: a JSON document read whole, such as the JWKS and the discovery
    /// document ``IDTokenValidator`` fetches. Sent once, not retried, as the validator always did.
    ///
    /// - Returns: the body of a 2xx answer.
    /// - Throws: ``AuthenticationError``: status 0 with the ``TransportError`` as cause when no
    ///   answer came, else the answer's status.
    func document() async throws(AuthenticationError) -> [UInt8] {
        let fetch: Request<[UInt8], AuthenticationError> = request(
            .get, "", headers: [(name: "Accept", value: "application/json")], retryable: false
        ) { response throws(AuthenticationError) in response.body }
        return try await fetch.start()
    }
}
