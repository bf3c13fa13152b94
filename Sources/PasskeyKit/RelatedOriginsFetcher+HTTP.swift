public import Auth0Passkeys
public import PasskeyAuthenticator

extension RelatedOriginsFetcher {
    /// A fetcher of `/.well-known/webauthn` documents over an `HTTPTransport`:
    /// the libcurl transport by default, which follows no redirect, speaks only `http` and
    /// `https`, verifies certificates and sends no cookies (WebAuthn L3 §5.11.1 step 2).
    ///
    /// The client only ever asks for `https://{rpId}/.well-known/webauthn`; a transport that
    /// routes requests elsewhere (a test's loopback server) is the caller's choice.
    ///
    /// ```swift
    /// let client = WebAuthnClient(authenticator: authenticator, relatedOrigins: .http())
    /// ```
    ///
    /// - Parameter transport: how to send the request; a `CurlTransport` with a
    ///   10-second limit and a 64 KiB body limit by default.
    /// - Returns: the fetcher.
    public static func http(
        _ transport: any HTTPTransport = CurlTransport(
            configuration: .init(timeout: .seconds(10), maxResponseSize: 64 << 10))
    ) -> RelatedOriginsFetcher {
        RelatedOriginsFetcher { url in
            let response = try await transport.send(
                HTTPRequest(method: .get, url: url, headers: [(name: "Accept", value: "application/json")]))
            return Response(status: response.status, contentType: response.header("Content-Type"), body: response.body)
        }
    }
}
