import FoundationEssentials
public import WebAuthn

extension CredentialsManager {
    /// A session transfer token from the stored refresh token, for web single sign-on
    /// (Auth0.swift's `ssoCredentials(parameters:headers:)`): the exchange of
    /// ``Authentication/ssoCredentials(withRefreshToken:clientAuthentication:)``, under the
    /// storage's lock. A rotated refresh token, and an ID token when one comes, replace the stored
    /// ones; nothing else changes. Each call gets a new token: they are used once.
    ///
    /// - Parameters:
    ///   - parameters: extra members of the exchange request.
    ///   - headers: extra headers of the exchange request.
    /// - Returns: the SSO credentials.
    /// - Throws: ``CredentialsManagerError`` with `noCredentials`, `noRefreshToken`,
    ///   `ssoExchangeFailed` (the ``AuthenticationError`` is the cause) or `storeFailed`.
    public func ssoCredentials(
        parameters: [String: JSONValue] = [:], headers: [String: String] = [:]
    ) async throws(CredentialsManagerError) -> SSOCredentials {
        try await serializedUnlocked { () async throws(CredentialsManagerError) in
            try await self.ssoExchange(parameters: parameters, headers: headers)
        }
    }

    private func ssoExchange(
        parameters: [String: JSONValue], headers: [String: String]
    ) async throws(CredentialsManagerError) -> SSOCredentials {
        let lock = try lockStorage()
        defer { lock.release() }
        guard let stored = try read() else { throw .noCredentials }
        guard let refreshToken = stored.refreshToken else { throw .noRefreshToken }
        try requireDPoPKey(stored)
        let sso: SSOCredentials
        do {
            sso = try await sessionAuthentication.ssoCredentials(
                withRefreshToken: refreshToken, clientAuthentication: clientAuthentication
            )
            .parameters(parameters).headers(headers).start()
        } catch {
            throw CredentialsManagerError(
                .ssoExchangeFailed, "The refresh token could not be exchanged for SSO credentials.", cause: error)
        }
        if let idToken = sso.idToken {
            try await validateIDToken(idToken)
        }
        if sso.refreshToken != nil || sso.idToken != nil {
            try saveSession(
                Credentials(
                    accessToken: stored.accessToken, tokenType: stored.tokenType,
                    idToken: sso.idToken ?? stored.idToken, refreshToken: sso.refreshToken ?? refreshToken,
                    expiresAt: stored.expiresAt, scope: stored.scope, recoveryCode: stored.recoveryCode))
        }
        return sso
    }
}
