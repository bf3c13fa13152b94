public import Auth0Passkeys

extension VirtualUser {
    /// The session's credentials, renewed with the refresh token when the access token expires
    /// within `minTTL` seconds (auth0-passkey-api.md §6.1, §9).
    ///
    /// - Parameters:
    ///   - scope: a narrower scope to renew with, or `nil`.
    ///   - minTTL: how long the access token must still be valid.
    /// - Returns: the credentials.
    /// - Throws: `CredentialsManagerError`.
    public func credentials(withScope scope: String? = nil, minTTL: Int = 60) async throws(CredentialsManagerError)
        -> Credentials
    {
        try await credentialsManager.credentials(withScope: scope, minTTL: minTTL)
    }

    /// API credentials for `audience`, from the session's refresh token (auth0-passkey-api.md
    /// §6.4, §9), kept per audience and scope while valid.
    ///
    /// The exchange also asks for `openid profile email`: the `CredentialsManager` keeps the ID
    /// token it brings as the session's, which would otherwise lose the user's name and email.
    ///
    /// - Parameters:
    ///   - audience: the API's audience.
    ///   - scope: the API's scopes.
    /// - Returns: the API credentials.
    /// - Throws: `CredentialsManagerError`.
    public func apiCredentials(audience: String, scope: String? = nil) async throws(CredentialsManagerError)
        -> APICredentials
    {
        try await credentialsManager.apiCredentials(
            forAudience: audience, scope: (["openid profile email"] + [scope].compactMap { $0 }).joined(separator: " "))
    }

    /// A session transfer token from the session's refresh token (Native to Web SSO): what opens
    /// a web application of the tenant as this user without a login, at its `/authorize` with
    /// `session_transfer_token` (`SSOCredentials`). The rotated refresh token is kept.
    ///
    /// - Returns: the SSO credentials.
    /// - Throws: `CredentialsManagerError`.
    public func ssoCredentials() async throws(CredentialsManagerError) -> SSOCredentials {
        try await credentialsManager.ssoCredentials()
    }

    /// The signed-in user as `/userinfo` reports it now (auth0-passkey-api.md §6.3).
    ///
    /// - Returns: the user.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/session(_:)`` (no session) or
    ///   ``PasskeyFlowError/authentication(_:)``.
    public func userInfo() async throws(PasskeyFlowError) -> UserInfo {
        let credentials: Credentials
        do {
            credentials = try await self.credentials()
        } catch {
            throw .session(error)
        }
        return try await sessionAuthentication.userInfo(
            withAccessToken: credentials.accessToken, tokenType: credentials.tokenType
        ).start(as: PasskeyFlowError.authentication)
    }

    /// Ends the session: with `revoke`, the refresh token is revoked first (auth0-passkey-api.md
    /// §6.2), and the session is kept when that fails so it can be tried again; then every entry
    /// is deleted.
    ///
    /// - Parameter revoke: whether to revoke the refresh token at the tenant.
    /// - Returns: whether there was a session, and whether its refresh token was revoked.
    /// - Throws: `CredentialsManagerError`.
    @discardableResult
    public func logOut(revoke: Bool) async throws(CredentialsManagerError) -> LogOutResult {
        let hadSession = await credentialsManager.user != nil
        let canRenew = await credentialsManager.canRenew()
        let revoked = revoke && hadSession && canRenew
        if revoke {
            try await credentialsManager.revoke()
        }
        try await credentialsManager.clearAll()
        return LogOutResult(hadSession: hadSession, revoked: revoked)
    }
}
