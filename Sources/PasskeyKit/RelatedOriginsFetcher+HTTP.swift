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
    /// - Parameter transport: how to send the request; a `CurlTransport` with
    ///   ``httpConfiguration`` by default.
    /// - Returns: the fetcher.
    public static func http(
        _ transport: any HTTPTransport = CurlTransport(configuration: httpConfiguration)
    ) -> RelatedOriginsFetcher {
        RelatedOriginsFetcher { url in
            let response = try await transport.send(
                HTTPRequest(method: .get, url: url, headers: [(name: "Accept", value: "application/json")]))
            return Response(status: response.status, contentType: response.header("Content-Type"), body: response.body)
        }
    }

    /// The limits of ``http(_:)``'s default transport: 10 seconds, a 64 KiB body (a related
    /// origins document is small), the environment's or the system's CA bundle. A caller that
    /// trusts another CA sets its `caBundlePath` and passes the transport.
    public static let httpConfiguration = CurlTransport.Configuration(
        timeout: .seconds(10), maxResponseSize: 64 << 10)
}
