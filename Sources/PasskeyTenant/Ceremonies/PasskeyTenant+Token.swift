import FoundationEssentials
import WebAuthn

extension PasskeyTenant {
    /// `POST /oauth/token`: the webauthn grant (signup or login, by the session), the authorization
    /// code grant of Web Auth, and the refresh grant, for the default audience or another one
    /// (auth0-passkey-api.md §3, §6.1, §6.4, §14.3); and the client credentials grant of the
    /// machine-to-machine client (§15.1, ``clientCredentials(_:)``).
    ///
    /// - Parameter request: the grant.
    /// - Returns: an access token, an ID token (`openid` is always granted), and a refresh token
    ///   when `offline_access` was granted.
    /// - Throws: `invalid_client` (401); `unsupported_grant_type`; `invalid_request` for a missing
    ///   or malformed parameter; `invalid_grant` for an unknown, expired or used `auth_session`,
    ///   a session of another client, connection or organization, a response that does not verify
    ///   or an unknown refresh token; `invalid_request` for an organization missing under
    ///   `require`, given under `deny` or unknown; `access_denied` (403) for an unknown audience and
    ///   for a user who is not a member of the organization (auth0-passkey-api.md §17);
    ///   `too_many_attempts` (429) for a locked-out user; `invalid_dpop_proof` when
    ///   ``TenantConfiguration/requireProofOfPossession`` is set or the grant is DPoP-bound (a call
    ///   in process carries no proof: DPoP is the router's, `POST /oauth/token` with a `DPoP` header).
    public func token(_ request: TokenRequest) async throws(TenantError) -> TokenResponse {
        try await token(request, proof: nil)
    }

    /// ``token(_:)`` with the request's checked DPoP proof, if it had one (RFC 9449 §5;
    /// auth0-passkey-api.md §16.4): the tokens it issues are bound to the proof's key, and
    /// ``TenantConfiguration/requireProofOfPossession`` refuses a request without one. The
    /// machine-to-machine client's grant is not the application's: it takes Bearer tokens only.
    ///
    /// - Throws: as ``token(_:)``; `invalid_dpop_proof` for a missing proof when one is required
    ///   or the grant (refresh token, authorization code) is bound to a key; `invalid_grant` when
    ///   it is bound to another key.
    func token(_ request: TokenRequest, proof: DPoPProof?) async throws(TenantError) -> TokenResponse {
        if request.grantType == TokenRequest.clientCredentialsGrant {
            return try await clientCredentials(request)
        }
        try checkClient(request.clientID)
        if configuration.requireProofOfPossession, proof == nil {
            throw TenantError(
                .invalidDPoPProof, "This application requires a DPoP proof (RFC 9449) at the token endpoint.")
        }
        var request = request
        request.dpopThumbprint = proof?.key.thumbprint
        switch request.grantType {
        case TokenRequest.webAuthnGrant:
            let session = try await takeSession(request.authSession)
            guard session.clientID == request.clientID else {
                throw .invalidGrant("The auth_session was issued to another client.")
            }
            if let realm = request.realm, realm != session.connection {
                throw .invalidGrant("The auth_session was issued for another connection.")
            }
            if request.organization != nil || configuration.organizationUsage == .require {
                let organization = try checkOrganization(request.organization)
                guard organization?.id == session.organization else {
                    throw .invalidGrant("The auth_session was issued for another organization.")
                }
            }
            switch session.kind {
            case .signup: return try await completeSignup(session, request: request)
            case .login: return try await completeLogin(session, request: request)
            case .enrollment: throw .invalidGrant("An enrollment auth_session is verified by My Account.")
            }
        case TokenRequest.refreshGrant:
            return try await refresh(request)
        case TokenRequest.authorizationCodeGrant:
            return try await exchangeCode(request)
        default:
            throw TenantError(.unsupportedGrantType, "Unsupported grant type: \(request.grantType.prefix(100))")
        }
    }

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
    /// `https://DOMAIN/me/` and to the SDK examples' `https://DOMAIN/me` (§13 open question 5).
    func apiScopes(_ audience: String) -> Set<String>? {
        if isMyAccount(audience) { return Self.myAccountScopes }
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
    ///   - identifiers: the access token's `jti` and the new refresh family.
    ///   - refresh: the rotated refresh token and its grant, for the refresh grant.
    ///   - dpopKey: the thumbprint of the request's DPoP proof's key: the access token carries it as
    ///     `cnf.jkt` and is a `DPoP` token, and a new refresh token is bound to it (RFC 9449 §5).
    func issueTokens(
        for user: TenantUser, scopes: [String], audience: String?, organization: TenantOrganization?, authTime: Date?,
        nonce: String? = nil, identifiers: TokenIdentifiers = .random(), refresh: (Secret, RefreshGrant)?,
        boundTo dpopKey: String?
    ) async throws(TenantError) -> TokenResponse {
        let now = clock.now()
        let issuedAt = Int(now.timeIntervalSince1970)
        let accessLifetime = Int(configuration.accessTokenLifetime.seconds)
        let scopeSet = Set(scopes)
        let audiences = audience.map { [$0, configuration.userInfoAudience] } ?? [configuration.userInfoAudience]
        let access = AccessTokenClaims(
            iss: configuration.issuer, sub: user.id, aud: Audience(audiences), azp: clientID,
            scope: scopes.joined(separator: " "), iat: issuedAt, exp: issuedAt + accessLifetime,
            jti: identifiers.accessTokenID, orgID: organization?.id, orgName: organization?.name,
            cnf: dpopKey.map(Confirmation.init(jkt:)))
        let id = IDTokenClaims(
            iss: configuration.issuer, sub: user.id, aud: clientID, azp: clientID, iat: issuedAt,
            exp: issuedAt + Int(configuration.idTokenLifetime.seconds),
            authTime: authTime.map { Int($0.timeIntervalSince1970) }, nonce: nonce, organization: organization,
            claims: UserClaims(user: user, scopes: scopeSet, includeSubject: false))
        var refreshToken: Secret?
        if let (secret, _) = refresh {
            refreshToken = secret
        } else if scopeSet.contains("offline_access") {
            let secret = Secret.random()
            let grant = RefreshGrant(
                userID: user.id, clientID: clientID, scope: scopes, audience: audience, organization: organization?.id,
                family: identifiers.refreshFamily,
                expiresAt: now.addingTimeInterval(configuration.refreshTokenLifetime.seconds), authTime: authTime,
                dpopJKT: dpopKey)
            try await store.insertRefreshToken(grant, digest: secret.digest)
            refreshToken = secret
        }
        return TokenResponse(
            accessToken: Secret(try await signer.sign(access)), tokenType: dpopKey == nil ? "Bearer" : "DPoP",
            expiresIn: accessLifetime,
            scope: scopes.joined(separator: " "), idToken: Secret(try await signer.sign(id)),
            refreshToken: refreshToken)
    }
}
