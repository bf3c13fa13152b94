/// Fetches a relying party's list of related origins, `https://{rpId}/.well-known/webauthn`, for
/// a ``WebAuthnClient`` that accepts Related Origin Requests (WebAuthn L3 §5.11).
///
/// This library has no HTTP client, so the fetch is an injected value, as randomness and clocks
/// are (STYLE §4); without one, the client refuses an RP ID its origin may not claim, as before.
/// `PasskeyKit` makes one over libcurl (`RelatedOriginsFetcher.http(_:)`).
///
/// The client builds the URL (always `https`) and judges the answer (§5.11.1: status 200,
/// `application/json`, a JSON object with `origins`); the closure only transfers it, and must:
///
/// - send a `GET` to the URL as given, without credentials (cookies, HTTP authentication) and
///   without a `Referer`;
/// - not follow redirects: a `3xx` answer is returned as it came, and the client refuses it;
/// - return any status as a response, and throw only when no response came (the client then
///   refuses with the error's description).
///
/// ```swift
/// let fetcher = RelatedOriginsFetcher { url in
///     RelatedOriginsFetcher.Response(
///         status: 200, contentType: "application/json",
///         body: Array(#"{"origins":["https://shop.example.net"]}"#.utf8))
/// }
/// let client = WebAuthnClient(authenticator: authenticator, relatedOrigins: fetcher)
/// ```
public struct RelatedOriginsFetcher: Sendable {
    /// One answer to the fetch, as it came: the status, the `Content-Type` field and the body.
    public struct Response: Sendable, Hashable {
        /// The status code; a redirect's `3xx` is not followed.
        public var status: Int
        /// The `Content-Type` field's value, parameters included, or `nil` without one.
        public var contentType: String?
        /// The body.
        public var body: [UInt8]

        /// Creates a response.
        ///
        /// - Parameters:
        ///   - status: the status code.
        ///   - contentType: the `Content-Type` value, or `nil`.
        ///   - body: the body bytes.
        public init(status: Int, contentType: String?, body: [UInt8]) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }
    }

    /// Fetches one URL once (see the type's contract) and returns the answer.
    public var fetch: @Sendable (_ url: String) async throws -> Response

    /// Creates a fetcher from the closure that does the transfer.
    ///
    /// - Parameter fetch: sends one `GET` to the URL, follows no redirect, and returns the answer;
    ///   throws only when no answer came.
    public init(fetch: @escaping @Sendable (_ url: String) async throws -> Response) {
        self.fetch = fetch
    }
}
