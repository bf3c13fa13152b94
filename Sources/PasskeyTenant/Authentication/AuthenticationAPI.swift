import FoundationEssentials
import Hummingbird
import JSONBodies
import WebAuthn

/// The Authentication API (auth0-passkey-api.md §1–§3, §6, §15.1): native passkey signup and
/// login challenges, `/oauth/token` (the webauthn, authorization code, refresh and client
/// credentials grants), revocation, userinfo, JWKS and discovery.
///
/// ```
/// POST /passkey/register                 a signup challenge          (under the address lockout)
/// POST /passkey/challenge                a login challenge           (under the address lockout)
/// POST /oauth/token                      a grant (JSON or form, DPoP) (under the address lockout)
/// POST /oauth/revoke                     revokes a refresh token (JSON or form) (under the address lockout)
/// GET  /userinfo                         the token's user's claims
/// GET  /.well-known/jwks.json            the signing key
/// GET  /.well-known/openid-configuration discovery
/// ```
struct AuthenticationAPI: TenantRoutes {
    let services: TenantServices

    func addRoutes(to router: Router<TenantRequestContext>, secure: Bool) {
        let limited = limited(router)
        limited.post("passkey/register") { request, context in
            try await self.signupChallenge(
                request.decode(as: SignupChallengeRequest.self, context: context),
                authorization: TenantServices.authorization(request))
        }
        limited.post("passkey/challenge") { request, context in
            try await self.loginChallenge(
                request.decode(as: LoginChallengeRequest.self, context: context),
                authorization: TenantServices.authorization(request))
        }
        limited.post("oauth/token") { request, context in
            let proof = try await self.services.dpopProof(request, secure: secure, at: .tokenEndpoint)
            return try await self.token(
                JSONRequestDecoder.tenant.decode(TokenRequest.self, jsonOrFormFrom: request, context: context),
                proof: proof, authorization: TenantServices.authorization(request))
        }
        limited.post("oauth/revoke") { request, context in
            try await self.revoke(
                JSONRequestDecoder.tenant.decode(RevokeRequest.self, jsonOrFormFrom: request, context: context),
                authorization: TenantServices.authorization(request))
            return TenantResponseEncoder.empty(status: .ok)
        }
        router.get("userinfo") { request, _ in
            try await self.userInfo(accessToken: self.services.accessToken(request, secure: secure))
        }
        router.get(".well-known/jwks.json") { _, _ in self.services.signer.jwks }
        router.get(".well-known/openid-configuration") { _, _ in self.discovery }
    }
}

extension AuthenticationAPI {
    /// Answers a signup or login challenge request (auth0-passkey-api.md §1.2, §2.2): checks the
    /// client, the connection and the organization in that order, lets `ceremony` check what is its
    /// own and generate the options, and opens the session that keeps their challenge.
    ///
    /// The client is any application that may use native passkeys: one whose `grant_types` has the
    /// webauthn grant (Auth0's "Passkey" grant type, which its dashboard offers to first-party
    /// native, single-page and regular web applications and never to machine-to-machine ones;
    /// §1.2: 400 when the app lacks the passkey grant, here `unauthorized_client`, which
    /// `/oauth/token` answers with 403). It authenticates as at `/oauth/token`
    /// (``TenantServices/authenticateClient(_:grant:)``): a public client (native, spa) names
    /// itself, a confidential one (regular_web) presents its secret in the body or in
    /// `Authorization: Basic` (§1.1: `client_secret` for confidential clients). The session keeps
    /// the client, so only it redeems the session with the webauthn grant.
    ///
    /// - Parameters:
    ///   - kind: the session to open.
    ///   - clientID, clientSecret, realm, organization: the request's members of those names.
    ///   - authorization: the request's `Authorization` header, for `client_secret_basic`.
    ///   - ceremony: given the connection and the organization, the user the session is for (a
    ///     signup's new one, nil for a login) and the options to send.
    /// - Returns: the `auth_session` and the options.
    func challenge<Options>(
        _ kind: PendingSession.Kind, _ clientID: String, _ clientSecret: Secret?,
        _ authorization: (scheme: String, token: Secret)?, _ realm: String?, _ organization: String?,
        ceremony: (_ connection: String, _ organization: TenantOrganization?) async throws(TenantError) -> (
            user: TenantUser?, generated: GeneratedOptions<Options>
        )
    ) async throws(TenantError) -> ChallengeResponse<Options> {
        let credentials = try ClientCredentials(
            authorization: authorization, bodyClientID: clientID, bodySecret: clientSecret)
        let clientID: String
        do {
            clientID = try services.authenticateClient(credentials, grant: TokenRequest.webAuthnGrant).clientID
        } catch  where error.code == .unauthorizedClient {
            // §1.2 gives the challenge endpoints 400 for an app without the passkey grant.
            throw TenantError(.unauthorizedClient, error.detail)
        }
        let connection = try services.checkRealm(realm)
        let organization = try services.checkOrganization(organization)
        let (user, generated) = try await ceremony(connection, organization)
        let secret = try await services.openSession(
            kind, clientID: clientID, connection: connection, organization: organization?.id, user: user,
            challenge: generated.challenge)
        return ChallengeResponse(authSession: secret, options: generated.options)
    }

    /// `GET /userinfo` (auth0-passkey-api.md §6.3; OpenID Connect Core 1.0 §5.3): the claims of
    /// the token's user that its scopes release, `sub` always.
    func userInfo(accessToken: Secret?) async throws(TenantError) -> UserClaims {
        let userInfo = configuration.userInfoAudience
        let claims = try await services.authorize(accessToken, audiences: { $0 == userInfo }, scope: "openid")
        guard let user = try await store.user(id: claims.sub) else {
            throw TenantError(.invalidToken, status: 401, "The token's user does not exist any more.")
        }
        return UserClaims(user: user, scopes: claims.scopes, includeSubject: true)
    }

    /// OpenID Connect Discovery for this tenant (OpenID Connect Discovery 1.0 §3), listing, as
    /// Auth0's does, the password and password-realm grants while the database connection takes
    /// passwords, and the passwordless OTP grant.
    var discovery: OpenIDConfiguration {
        let base = configuration.issuer
        let passwordGrants =
            configuration.databaseConnection.passwordsEnabled
            ? [TokenRequest.passwordGrant, TokenRequest.passwordRealmGrant] : []
        return OpenIDConfiguration(
            issuer: base, authorizationEndpoint: base + "authorize", tokenEndpoint: base + "oauth/token",
            userinfoEndpoint: base + "userinfo", revocationEndpoint: base + "oauth/revoke",
            endSessionEndpoint: base + "oidc/logout", jwksURI: base + ".well-known/jwks.json",
            grantTypesSupported: [
                TokenRequest.webAuthnGrant, TokenRequest.authorizationCodeGrant, TokenRequest.refreshGrant,
                TokenRequest.clientCredentialsGrant, TokenRequest.passwordlessOTPGrant,
            ] + passwordGrants,
            scopesSupported: TenantServices.openIDScopes.sorted(),
            claimsSupported: UserClaims.CodingKeys.allCases.map(\.rawValue)
                + ["iss", "aud", "exp", "iat", "azp", "auth_time", "nonce", "amr", "sid", "org_id", "org_name"])
    }
}
