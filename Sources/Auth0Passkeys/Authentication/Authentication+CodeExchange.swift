extension Authentication {
    /// Exchanges an authorization code for credentials: `POST /oauth/token` with
    /// `grant_type=authorization_code` and the PKCE verifier (RFC 6749 §4.1.3, RFC 7636 §4.5;
    /// spec §14.3), with exactly the keys Auth0.swift sends, and the application's client
    /// authentication (RFC 6749 §2.3.1) when it is a confidential client.
    ///
    /// Never retried: a code is single-use, and the tenant revokes what a replayed one issued.
    /// ``WebAuth`` calls this and validates the ID token; call it yourself only with a code your
    /// own user agent brought back.
    ///
    /// - Parameters:
    ///   - code: the `code` of the redirect.
    ///   - codeVerifier: the verifier whose challenge went to `/authorize`.
    ///   - redirectURI: the `redirect_uri` sent to `/authorize`.
    ///   - clientAuthentication: how the application authenticates: ``ClientAuthentication/none``
    ///     for a public client (a native app, a single-page app), its secret for a regular web
    ///     application.
    /// - Returns: the request; it decodes ``Credentials``.
    public func codeExchange(
        withCode code: String, codeVerifier: String, redirectURI: String,
        clientAuthentication: ClientAuthentication = .none
    ) -> Request<Credentials, AuthenticationError> {
        post(
            "oauth/token",
            TokenGrantBody(
                grantType: .authorizationCode, clientId: clientId, code: code, codeVerifier: codeVerifier,
                redirectURI: redirectURI),
            authenticating: clientAuthentication, retryable: false, Self.credentials)
    }
}
