import FoundationEssentials
import WebAuthn

extension TenantServices {
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
        guard try await store.peek(RevokedToken.self, key: .text(claims.jti), at: clock.now()) == nil else {
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

    /// The `gty` claim of a client credentials token.
    static let clientCredentialsGty = "client-credentials"

    /// The scopes OpenID Connect defines, which any audience may be granted.
    static let openIDScopes: Set<String> = ["openid", "profile", "email", "phone", "offline_access"]

    /// The My Account API's scopes (auth0-passkey-api.md §5.1).
    static let myAccountScopes: Set<String> = [
        "create:me:authentication_methods", "read:me:authentication_methods", "update:me:authentication_methods",
        "delete:me:authentication_methods", "read:me:factors",
    ]

    /// The sample API's scope.
    static let eventsScope = "read:events"

    /// The scopes an API defines, or nil when the tenant has no such API. My Account answers to
    /// `https://DOMAIN/me/` and to the SDK examples' `https://DOMAIN/me` (§13 open question 5);
    /// the Management API gives a user's login its current-user scopes only.
    func apiScopes(_ audience: String) -> Set<String>? {
        if isMyAccount(audience) { return Self.myAccountScopes }
        if audience == configuration.managementAudience { return Self.currentUserScopes }
        if audience == configuration.apiAudience { return [Self.eventsScope] }
        return nil
    }

    func isMyAccount(_ audience: String) -> Bool {
        audience == configuration.myAccountAudience || audience + "/" == configuration.myAccountAudience
    }

    /// The scopes granted for `scope` and `audience`: the ones asked for that OpenID Connect or the
    /// API defines, in the order asked, with `openid` always first (auth0-passkey-api.md §3.3).
    ///
    /// - Throws: `access_denied` (403) when there is no API with that audience.
    func grantedScopes(_ scope: String?, audience: String?) throws(TenantError) -> ([String], String?) {
        var allowed = Self.openIDScopes
        if let audience {
            guard let scopes = apiScopes(audience) else {
                throw TenantError(.accessDenied, status: 403, "Service not found: \(audience.prefix(200))")
            }
            allowed.formUnion(scopes)
        }
        var granted = ["openid"]
        for name in (scope ?? "").split(separator: " ").map(String.init)
        where allowed.contains(name) && !granted.contains(name) {
            granted.append(name)
        }
        return (granted, audience)
    }

    /// Signs the access and ID tokens of a grant and, with `offline_access`, stores a refresh token
    /// (a new family, or `refresh`'s successor when rotating).
    ///
    /// - Parameters:
    ///   - user: whose tokens.
    ///   - scopes: the granted scopes, `openid` first.
    ///   - audience: the API, if any.
    ///   - organization: the organization logged in through, if any: both tokens carry its
    ///     `org_id` and `org_name` (auth0-passkey-api.md §17).
    ///   - authTime: when the user performed the passkey ceremony; nil when unknown (a refresh
    ///     token stored before it was kept).
    ///   - nonce: the `/authorize` nonce of a code grant.
    ///   - sessionID: the login session's ID, the ID token's `sid`; a new refresh token keeps it.
    ///   - identifiers: the access token's `jti` and the new refresh family.
    ///   - refresh: the rotated refresh token and its grant, for the refresh grant.
    ///   - dpopKey: the thumbprint of the request's DPoP proof's key: the access token carries it as
    ///     `cnf.jkt` and is a `DPoP` token, and a new refresh token is bound to it (RFC 9449 §5).
    ///   - client: the application the tokens are for (the ID token's `aud`, `azp`); by default the
    ///     default native one.
    ///   - assertion: the webauthn grant's verified assertion, stored with the new refresh token in
    ///     one transaction (``record(_:of:refresh:)``), before any token is signed.
    func issueTokens(
        for user: TenantUser, scopes: [String], audience: String?, organization: TenantOrganization?, authTime: Date?,
        nonce: String? = nil, sessionID: String?, identifiers: TokenIdentifiers = .random(),
        refresh: (Secret, RefreshGrant)?,
        boundTo dpopKey: String?, client: String? = nil, recording assertion: AssertionUpdate? = nil
    ) async throws(TenantError) -> TokenResponse {
        let owner = user.id
        // A linked (secondary) user logs in as its primary, whichever grant logs it in.
        let user = try await primary(of: user)
        let clientID = client ?? self.clientID
        let now = clock.now()
        let issuedAt = Int(now.timeIntervalSince1970)
        let accessLifetime = Int(configuration.accessTokenLifetime.seconds)
        let scopeSet = Set(scopes)
        let audiences = audience.map { [$0, configuration.userInfoAudience] } ?? [configuration.userInfoAudience]
        let access = AccessTokenClaims(
            RegisteredClaims(
                iss: configuration.issuer, sub: user.id, aud: Audience(audiences), azp: clientID, iat: issuedAt,
                exp: issuedAt + accessLifetime),
            AccessTokenGrant(
                scope: scopes.joined(separator: " "), jti: identifiers.accessTokenID, orgID: organization?.id,
                orgName: organization?.name, cnf: dpopKey.map(Confirmation.init(jkt:))))
        let id = IDTokenClaims(
            RegisteredClaims(
                iss: configuration.issuer, sub: user.id, aud: Audience([clientID]), azp: clientID, iat: issuedAt,
                exp: issuedAt + Int(configuration.idTokenLifetime.seconds)),
            JoinedClaims(
                IDTokenLogin(
                    authTime: authTime.map { Int($0.timeIntervalSince1970) }, nonce: nonce, orgID: organization?.id,
                    orgName: organization?.name, sid: sessionID),
                UserClaims(user: user, scopes: scopeSet, includeSubject: false)))
        var refreshToken: Secret?
        var stored: (grant: RefreshGrant, key: StoredValue)?
        if let (secret, _) = refresh {
            refreshToken = secret
        } else if scopeSet.contains("offline_access") {
            let secret = Secret.random()
            let grant = RefreshGrant(
                userID: user.id, clientID: clientID, scope: scopes, audience: audience, organization: organization?.id,
                family: identifiers.refreshFamily,
                expiresAt: now.addingTimeInterval(configuration.refreshTokenLifetime.seconds), authTime: authTime,
                dpopJKT: dpopKey, sessionID: sessionID)
            stored = (grant, .digest(secret.digest))
            refreshToken = secret
        }
        if let assertion {
            try await record(assertion, of: owner, refresh: stored)
        } else if let stored {
            try await store.insert(stored.grant, key: stored.key)
        }
        return TokenResponse(
            accessToken: Secret(try await signer.sign(access)), tokenType: dpopKey == nil ? "Bearer" : "DPoP",
            expiresIn: accessLifetime,
            scope: scopes.joined(separator: " "), idToken: Secret(try await signer.sign(id)),
            refreshToken: refreshToken)
    }
}
