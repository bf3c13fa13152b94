import FoundationEssentials

extension AuthenticationAPI {
    /// The refresh grant (auth0-passkey-api.md §6.1, §6.4): a new access and ID token for the
    /// grant's audience or another API (multi-resource refresh), and the token rotated.
    ///
    /// For the grant's own audience the scopes asked for must be among the ones granted; for
    /// another API they are the grant's OpenID scopes plus that API's. Failures count against the
    /// grant's user.
    func refresh(_ request: TokenRequest) async throws(TenantError) -> TokenResponse {
        guard let presented = request.refreshToken else { throw .invalidRequest("refresh_token: missing") }
        let invalid = TenantError.invalidGrant("Unknown or invalid refresh token.")
        guard
            let grant = try await store.refreshGrant(
                digest: presented.digest, clientID: request.clientID, at: clock.now())
        else { throw invalid }
        try await services.checkAttempts([.user(grant.userID)])
        return try await services.counting([.user(grant.userID)]) { () async throws(TenantError) -> TokenResponse in
            try services.checkBinding(grant.dpopJKT, proof: request.dpopThumbprint, of: "refresh token")
            let audience = request.audience ?? grant.audience
            let granted = Set(grant.scope)
            let allowed: Set<String> =
                audience == grant.audience
                ? granted
                : granted.intersection(TenantServices.openIDScopes).union(audience.flatMap(services.apiScopes) ?? [])
            let asked = request.scope.map { $0.split(separator: " ").map(String.init) } ?? grant.scope
            if let excess = asked.first(where: { !allowed.contains($0) && $0 != "openid" }) {
                throw TenantError(
                    .accessDenied, status: 403, "The refresh token does not grant scope \(excess.prefix(100)).")
            }
            let (scopes, _) = try services.grantedScopes(asked.joined(separator: " "), audience: audience)
            guard let user = try await store.user(id: grant.userID) else {
                throw .invalidGrant("The refresh_token was generated for a user who doesn't exist anymore.")
            }
            let successor = Secret.random()
            guard
                let rotated = try await store.rotateRefreshToken(
                    digest: presented.digest, clientID: request.clientID, successor: successor.digest,
                    expiresAt: clock.now().addingTimeInterval(configuration.refreshTokenLifetime.seconds),
                    at: clock.now())
            else { throw invalid }
            return try await services.issueTokens(
                for: user, scopes: scopes, audience: audience,
                organization: try services.issuedOrganization(rotated.organization),
                authTime: rotated.authTime, sessionID: rotated.sessionID, refresh: (successor, rotated),
                boundTo: request.dpopThumbprint,
                client: request.clientID)
        }
    }

    /// `POST /oauth/revoke` (auth0-passkey-api.md §6.2; RFC 7009): revokes a refresh token and the
    /// tokens rotated from the same login. The client authenticates as at the token endpoint
    /// (RFC 7009 §2.1; ``TenantServices/authenticateClient(_:grant:)``), and only its own tokens
    /// are revoked. An unknown token, or another client's, is not an error (RFC 7009 §2.2).
    ///
    /// - Parameters:
    ///   - request: the body.
    ///   - authorization: the request's `Authorization` header, for `client_secret_basic`.
    /// - Throws: `invalid_client` (401) as client authentication says; `invalid_request` for a
    ///   missing `token`.
    func revoke(_ request: RevokeRequest, authorization: (scheme: String, token: Secret)? = nil)
        async throws(TenantError)
    {
        let client = try services.authenticateClient(
            ClientCredentials(
                authorization: authorization, bodyClientID: request.clientID, bodySecret: request.clientSecret),
            grant: nil)
        guard !request.token.text.isEmpty else { throw .invalidRequest("token: missing") }
        try await store.revokeRefreshToken(digest: request.token.digest, clientID: client.clientID)
    }
}
