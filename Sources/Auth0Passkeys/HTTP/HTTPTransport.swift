/// Sends one HTTP request and returns its response: the seam between the Auth0 clients and the
/// network, implementable outside this package.
///
/// Every client (``Authentication``, ``MyAccount``, and so the ``CredentialsManager`` built on an
/// `Authentication`) takes `transport: any HTTPTransport` and uses ``CurlTransport`` by default.
/// Another conformer can record the exchanges, answer from a script, or route each request to a
/// server in the same process, with no socket.
///
/// A conformer performs exactly one exchange per call:
///
/// - no retries: the clients retry the safe requests themselves (``RetryPolicy``), and must see
///   each failure to do so; the webauthn grant must never be sent twice;
/// - no redirects: a `3xx` answer is returned as is, since an Auth0 answer such as `202` with
///   `Location` is read by the client;
/// - any status is a response, errors included: throw only when there is no response, with the
///   ``TransportError/Code`` that says why. ``TransportError/Code/timedOut``,
///   ``TransportError/Code/cannotConnect``, ``TransportError/Code/cannotResolveHost`` and
///   ``TransportError/Code/connectionLost`` mean "the network failed" and make a safe request
///   eligible for a retry; ``TransportError/Code/cancelled`` is for a cancelled task.
///
/// Conformers are `Sendable`: one transport may serve many clients and tasks at once.
///
/// ```swift
/// /// Adds a W3C Trace Context header to every request, then lets another transport send it.
/// struct TracingTransport: HTTPTransport {
///     let base: any HTTPTransport
///     let traceparent: String
///
///     func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
///         var request = request
///         request.headers.append((name: "traceparent", value: traceparent))
///         return try await base.send(request)
///     }
/// }
///
/// let auth = Authentication(
///     clientId: clientID, domain: "login.example.com",
///     transport: TracingTransport(base: CurlTransport(), traceparent: traceparent))
/// ```
public protocol HTTPTransport: Sendable {
    /// Performs one exchange: sends `request`, waits for the whole response, and returns it.
    ///
    /// No retries and no redirects (see ``HTTPTransport``); an error status is a response, not
    /// an error.
    ///
    /// - Parameter request: the request, with the absolute URL, every header field to send and
    ///   the body.
    /// - Returns: the final response, whatever its status.
    /// - Throws: ``TransportError`` when no complete response arrived.
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}
