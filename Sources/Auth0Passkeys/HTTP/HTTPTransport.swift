/// Sends one HTTP request and returns the response: the seam between the Auth0 clients and the
/// network.
///
/// The clients use ``CurlTransport`` unless a test injects another transport, for example one
/// that records the requests and answers from a script (STYLE §4: an injected value holding a
/// closure, as webauthn-swift's `ChallengeGenerator`).
package struct HTTPTransport: Sendable {
    /// Performs one exchange; no retries (the caller decides those).
    package var send: @Sendable (HTTPRequest) async throws(TransportError) -> HTTPResponse

    package init(send: @escaping @Sendable (HTTPRequest) async throws(TransportError) -> HTTPResponse) {
        self.send = send
    }
}
