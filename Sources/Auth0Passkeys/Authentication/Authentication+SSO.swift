import FoundationEssentials

extension Authentication {
    /// Exchanges a refresh token for a session transfer token, for web single sign-on (Auth0's
    /// Native to Web SSO; Auth0.swift's `ssoExchange(withRefreshToken:)`): `POST /oauth/token`
    /// with `grant_type=refresh_token` and `audience=urn:<host>:session_transfer`, `<host>` the
    /// tenant URL's host.
    ///
    /// ```swift
    /// let sso = try await auth.ssoCredentials(withRefreshToken: refreshToken).start()
    /// // open https://web.example.com/login?session_transfer_token=<sso.sessionTransferToken>
    /// ```
    ///
    /// The tenant rotates the refresh token when rotation is on: keep ``SSOCredentials/refreshToken``
    /// in place of the old one (``CredentialsManager/ssoCredentials(parameters:headers:)`` does).
    ///
    /// - Parameters:
    ///   - refreshToken: the refresh token.
    ///   - clientAuthentication: how the application authenticates; none for a native app.
    /// - Returns: the request; it decodes ``SSOCredentials``.
    public func ssoCredentials(
        withRefreshToken refreshToken: String, clientAuthentication: ClientAuthentication = .none
    ) -> Request<SSOCredentials, AuthenticationError> {
        let body = TokenGrantBody(
            grantType: .refreshToken, clientId: clientId, refreshToken: refreshToken,
            audience: "urn:\(Self.host(of: url)):session_transfer")
        return post(
            "oauth/token", body, authenticating: clientAuthentication, retryable: true,
            ResponseHandling.json(SSOCredentials.self, AuthenticationError.self))
    }

    /// The host of a base URL, without scheme, port or path: what Auth0.swift's `url.host` is.
    static func host(of url: String) -> String {
        let authority = url.split(separator: "://", maxSplits: 1).last?.prefix { $0 != "/" } ?? ""
        return authority.hasPrefix("[")
            ? String(authority.prefix { $0 != "]" }) + "]" : String(authority.prefix { $0 != ":" })
    }
}
