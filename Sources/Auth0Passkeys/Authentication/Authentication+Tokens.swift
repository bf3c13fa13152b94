import FoundationEssentials
import WebAuthn

extension Authentication {
    /// Exchanges a refresh token for new credentials: `POST /oauth/token` with
    /// `grant_type=refresh_token` (spec §6.1). With an `audience`, this is the exchange for API
    /// credentials (spec §6.4): ``APICredentials/init(_:)`` reads the answer.
    ///
    /// With an audience the scope gets `openid` when it lacks it; without one it is sent as
    /// given. `refresh_token` may be absent from the answer (no rotation): keep the old one.
    ///
    /// ```swift
    /// let myAccount = try await auth.renew(
    ///     withRefreshToken: refreshToken, audience: "https://login.example.com/me/",
    ///     scope: "create:me:authentication_methods").start()
    /// ```
    ///
    /// A confidential client (a regular web application) authenticates as it did at the code
    /// exchange (RFC 6749 §6: "the client MUST authenticate"), with the same
    /// ``ClientAuthentication``; a public client sends its `client_id` alone.
    ///
    /// - Parameters:
    ///   - refreshToken: the refresh token.
    ///   - audience: the API to get an access token for; the original audience when `nil`.
    ///   - scope: the scopes to ask for; the original ones when `nil`.
    ///   - clientAuthentication: how the application authenticates: ``ClientAuthentication/none``
    ///     for a public client, its secret for a regular web application.
    /// - Returns: the request; it decodes ``Credentials``.
    public func renew(
        withRefreshToken refreshToken: String, audience: String? = nil, scope: String? = nil,
        clientAuthentication: ClientAuthentication = .none
    ) -> Request<Credentials, AuthenticationError> {
        let body = TokenGrantBody(
            grantType: .refreshToken, clientId: clientId, refreshToken: refreshToken,
            scope: audience == nil ? scope : scope.map(Scope.includingOpenID), audience: audience)
        return post("oauth/token", body, authenticating: clientAuthentication, retryable: true, Self.credentials)
    }

    /// Revokes a refresh token: `POST /oauth/revoke` (spec §6.2). Revoking is idempotent, so it
    /// is retried after a retryable failure.
    ///
    /// A confidential client authenticates as at the token endpoint (RFC 7009 §2.1), with the same
    /// ``ClientAuthentication``.
    ///
    /// - Parameters:
    ///   - refreshToken: the refresh token.
    ///   - clientAuthentication: how the application authenticates: ``ClientAuthentication/none``
    ///     for a public client, its secret for a regular web application.
    /// - Returns: the request; any success answers, whatever the body.
    public func revoke(
        refreshToken: String, clientAuthentication: ClientAuthentication = .none
    ) -> Request<Void, AuthenticationError> {
        post(
            "oauth/revoke", RevokeBody(token: refreshToken, clientId: clientId),
            authenticating: clientAuthentication, retryable: true, ResponseHandling.none(AuthenticationError.self))
    }

    /// The user's claims: `GET /userinfo` with `Authorization: <tokenType> <accessToken>`
    /// (spec §6.3); for a `DPoP` token, with a proof carrying `ath` when the client uses DPoP
    /// (spec §16.5).
    ///
    /// - Parameters:
    ///   - accessToken: an access token whose audience includes the tenant's userinfo endpoint.
    ///   - tokenType: the authorization scheme; `Bearer` by default.
    /// - Returns: the request; it decodes ``UserInfo`` (`sub` required).
    public func userInfo(withAccessToken accessToken: String, tokenType: String = "Bearer") -> Request<
        UserInfo, AuthenticationError
    > {
        endpoint.request(
            .get, "userinfo", headers: [(name: "Authorization", value: "\(tokenType) \(accessToken)")],
            retryable: true, dpop: dpop.map { DPoPSigner(dpop: $0, rule: .boundToken) },
            ResponseHandling.json(UserInfo.self, AuthenticationError.self))
    }

    /// The tenant's signing keys: `GET /.well-known/jwks.json` (spec §6.5).
    ///
    /// - Returns: the request; it decodes ``JWKS``.
    public func jwks() -> Request<JWKS, AuthenticationError> {
        endpoint.request(
            .get, ".well-known/jwks.json", retryable: true, ResponseHandling.json(JWKS.self, AuthenticationError.self))
    }
}

/// `POST /oauth/revoke` (spec §6.2).
struct RevokeBody: Encodable {
    let token: String
    let clientId: String

    enum CodingKeys: String, CodingKey {
        case token
        case clientId = "client_id"
    }
}
