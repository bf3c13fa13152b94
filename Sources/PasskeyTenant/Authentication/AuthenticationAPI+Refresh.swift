import FoundationEssentials

extension AuthenticationAPI {
    /// The refresh grant (auth0-passkey-api.md §6.1, §6.4): a new access and ID token for the
    /// grant's audience or another API (multi-resource refresh), and the token rotated.
    ///
    /// For the grant's own audience the scopes asked for must be among the ones granted; for
    /// another API they are the grant's OpenID scopes plus that API's: **[local]** the application's
    /// Multi-Resource Refresh Token policy (Auth0's `refresh_token.policies`) is every API of the
    /// tenant with all its scopes, for every application. A `urn:<domain>:session_transfer`
    /// audience asks for a session transfer token instead (``sessionTransfer(_:)``). Failures count against the
    /// grant's user. An unknown, expired, revoked or reused token, and one whose user is gone,
    /// are refused `invalid_grant` with 403, as Auth0 answers them.
    func refresh(_ request: TokenRequest) async throws(TenantError) -> TokenResponse {
        if let audience = request.audience, SessionTransfer.isAudience(audience, domain: configuration.domain) {
            return try await sessionTransfer(request)
        }
        return try await usingRefreshToken(request) { (grant, user) async throws(TenantError) -> TokenResponse in
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
            let (successor, rotated) = try await rotate(request)
            return try await services.issueTokens(
                for: user, scopes: scopes, audience: audience,
                organization: try services.issuedOrganization(rotated.organization),
                authTime: rotated.authTime, sessionID: rotated.sessionID, refresh: (successor, rotated),
                boundTo: request.dpopThumbprint,
                client: request.clientID)
        }
    }

    /// The refusal of a refresh token that is unknown, expired, revoked, reused or another
    /// client's: `invalid_grant` with 403, Auth0's answer.
    static let invalidRefreshToken = TenantError(.invalidGrant, status: 403, "Unknown or invalid refresh token.")

    /// Runs `body` with the grant of the request's refresh token and its user, the checks every
    /// use of a refresh token shares done first: the token is live and the client's, its user is not
    /// locked out and still exists, and a DPoP-bound token comes with a proof of its key
    /// (RFC 9449 §5). A refusal, `body`'s included, counts against the grant's user.
    ///
    /// - Throws: `invalid_request` without a token; `invalid_grant` (403) for a token that is not
    ///   live or whose user is gone; `too_many_attempts`; `body`'s errors.
    func usingRefreshToken(
        _ request: TokenRequest, _ body: (RefreshGrant, TenantUser) async throws(TenantError) -> TokenResponse
    ) async throws(TenantError) -> TokenResponse {
        guard let presented = request.refreshToken else { throw .invalidRequest("refresh_token: missing") }
        guard
            let grant = try await store.refreshGrant(
                digest: presented.digest, clientID: request.clientID, at: clock.now())
        else { throw Self.invalidRefreshToken }
        try await services.checkAttempts([.user(grant.userID)])
        return try await services.counting([.user(grant.userID)]) { () async throws(TenantError) -> TokenResponse in
            try services.checkBinding(grant.dpopJKT, proof: request.dpopThumbprint, of: "refresh token")
            guard let user = try await store.user(id: grant.userID) else {
                throw TenantError(
                    .invalidGrant, status: 403,
                    "The refresh_token was generated for a user who doesn't exist anymore.")
            }
            return try await body(grant, user)
        }
    }

    /// Rotates the request's refresh token: marks it used and stores its successor, of the same
    /// family, for ``TenantConfiguration/refreshTokenLifetime``.
    ///
    /// - Returns: the successor and its grant.
    /// - Throws: `invalid_grant` (403) when the token was used meanwhile.
    func rotate(_ request: TokenRequest) async throws(TenantError) -> (Secret, RefreshGrant) {
        guard let presented = request.refreshToken else { throw .invalidRequest("refresh_token: missing") }
        let successor = Secret.random()
        guard
            let rotated = try await store.rotateRefreshToken(
                digest: presented.digest, clientID: request.clientID, successor: successor.digest,
                expiresAt: clock.now().addingTimeInterval(configuration.refreshTokenLifetime.seconds),
                at: clock.now())
        else { throw Self.invalidRefreshToken }
        return (successor, rotated)
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
