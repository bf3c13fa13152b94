import FoundationEssentials

extension PasskeyTenant {
    /// The claims of a bearer access token the tenant issued, unexpired, for one of `audiences`,
    /// granting `scope` (RFC 6750 §3.1).
    ///
    /// - Throws: `invalid_token` (401) for a missing, malformed, foreign, expired or revoked token or
    ///   one for another audience; `insufficient_scope` (403) when the scope is not granted.
    func authorize(_ token: Secret?, audiences: (String) -> Bool, scope: String?) async throws(TenantError)
        -> AccessTokenClaims
    {
        guard let token else {
            throw TenantError(.invalidToken, status: 401, "A bearer access token is required.")
        }
        guard let claims = await signer.verify(token.text, as: AccessTokenClaims.self),
            claims.iss == configuration.issuer
        else {
            throw TenantError(.invalidToken, status: 401, "The access token is malformed or not signed by this tenant.")
        }
        guard Double(claims.exp) > clock.now().timeIntervalSince1970 else {
            throw TenantError(.invalidToken, status: 401, "The access token expired.")
        }
        // A replayed authorization code revokes the access token its first use issued (RFC 6749 §4.1.2).
        guard try await !store.isRevoked(jti: claims.jti) else {
            throw TenantError(.invalidToken, status: 401, "The access token was revoked.")
        }
        guard claims.aud.values.contains(where: audiences) else {
            throw TenantError(.invalidToken, status: 401, "The access token is for another audience.")
        }
        if let scope, !claims.scopes.contains(scope) {
            throw TenantError(.insufficientScope, status: 403, "The access token lacks scope \(scope).")
        }
        return claims
    }

    /// `GET /userinfo` (auth0-passkey-api.md §6.3; OpenID Connect Core 1.0 §5.3): the claims of
    /// the token's user that its scopes release, `sub` always.
    ///
    /// - Parameter accessToken: the bearer token.
    /// - Returns: the claims.
    /// - Throws: `invalid_token` (401) as ``authorize(_:audiences:scope:)`` says, or when the user is gone.
    public func userInfo(accessToken: Secret?) async throws(TenantError) -> UserClaims {
        let userInfo = configuration.userInfoAudience
        let claims = try await authorize(accessToken, audiences: { $0 == userInfo }, scope: "openid")
        guard let user = try await store.user(id: claims.sub) else {
            throw TenantError(.invalidToken, status: 401, "The token's user does not exist any more.")
        }
        return UserClaims(user: user, scopes: claims.scopes, includeSubject: true)
    }

    /// `GET /api/events`, the sample protected API: needs an access token for the configured API
    /// audience with scope `read:events`.
    ///
    /// - Parameter accessToken: the bearer token.
    /// - Returns: the events visible to the token's user.
    /// - Throws: `invalid_token` (401) or `insufficient_scope` (403).
    public func events(accessToken: Secret?) async throws(TenantError) -> EventList {
        let audience = configuration.apiAudience
        let claims = try await authorize(accessToken, audiences: { $0 == audience }, scope: Self.eventsScope)
        return EventList(
            subject: claims.sub,
            events: [
                .init(id: "evt_1", name: "Passkey workshop"),
                .init(id: "evt_2", name: "WebAuthn Level 3 reading group"),
            ])
    }
}

/// `GET /api/events`'s answer.
public struct EventList: Sendable, Hashable, Codable {
    /// One event.
    public struct Event: Sendable, Hashable, Codable {
        public var id: String
        public var name: String
    }

    /// The `sub` of the token the API was called with.
    public var subject: String
    public var events: [Event]

    enum CodingKeys: String, CodingKey {
        case subject = "sub"
        case events
    }
}
