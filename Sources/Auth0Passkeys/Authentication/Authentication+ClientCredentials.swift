extension Authentication {
    /// Gets an access token for an API as the application itself, with no user: `POST /oauth/token`
    /// with `grant_type=client_credentials` (RFC 6749 §4.4; spec §15.1). ``clientId`` is the
    /// machine-to-machine application's ID.
    ///
    /// For the Management API the audience is `https://DOMAIN/api/v2/`, on the canonical tenant
    /// domain even when a custom domain serves the other endpoints; a local tenant's is its issuer
    /// followed by `api/v2/`. The granted scopes are the client's grant (`create:users`,
    /// `read:users`, `create:authentication_methods`, …): no scope is asked for.
    ///
    /// ```swift
    /// let m2m = Authentication(clientId: "m2mClientID", domain: "tenant.auth0.com")
    /// let token = try await m2m.clientCredentials(
    ///     clientSecret: ClientSecret(secret), audience: "https://tenant.auth0.com/api/v2/").start()
    /// let management = ManagementAPI(token: token.accessToken, domain: "tenant.auth0.com")
    /// ```
    ///
    /// The body is JSON, which the spec allows as well as a form; the trace logs `client_secret`
    /// as `<redacted>`. A token request changes nothing on the server, so it is retried after a
    /// retryable failure.
    ///
    /// - Parameters:
    ///   - clientSecret: the application's secret.
    ///   - audience: the API the token is for.
    /// - Returns: the request; it decodes ``APICredentials`` (`expires_in` counted from the answer).
    public func clientCredentials(
        clientSecret: ClientSecret, audience: String
    ) -> Request<APICredentials, AuthenticationError> {
        let body = TokenGrantBody(grantType: .clientCredentials, clientId: clientId, audience: audience)
        return post("oauth/token", body, authenticating: .clientSecretPost(clientSecret), retryable: true) {
            response throws(AuthenticationError) in
            APICredentials(try Self.credentials(response))
        }
    }
}
