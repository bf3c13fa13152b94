import FoundationEssentials
import WebAuthn

/// The tenant's operations in process, without HTTP: each one runs the API that serves its route,
/// with the same checks (DPoP proofs aside: they belong to the request, ``router(servesTLS:)``'s).
extension PasskeyTenant {
    /// `GET /userinfo` (auth0-passkey-api.md §6.3; OpenID Connect Core 1.0 §5.3): the claims of
    /// the token's user that its scopes release, `sub` always.
    ///
    /// - Parameter accessToken: the bearer token.
    /// - Returns: the claims.
    /// - Throws: `invalid_token` (401) as ``TenantServices/authorize(_:audiences:scope:)`` says, or when the user is gone.
    public func userInfo(accessToken: Secret?) async throws(TenantError) -> UserClaims {
        try await authentication.userInfo(accessToken: accessToken)
    }

    /// `GET /api/events`, the sample protected API: needs an access token for the configured API
    /// audience with scope `read:events`.
    ///
    /// - Parameter accessToken: the bearer token.
    /// - Returns: the events visible to the token's user.
    /// - Throws: `invalid_token` (401) or `insufficient_scope` (403).
    public func events(accessToken: Secret?) async throws(TenantError) -> EventList {
        try await resourceServer.events(accessToken: accessToken)
    }

    /// `POST /passkey/challenge`: opens a login with a discoverable credential
    /// (auth0-passkey-api.md §2): no `allowCredentials`, the user handle comes back in the assertion.
    ///
    /// - Parameter request: the client and the connection.
    /// - Returns: the `auth_session` and the request options (camel-case `rpId`).
    /// - Throws: `invalid_client` (401) for an unknown client; `invalid_request` for an unknown
    ///   connection, and for an organization missing under `require`, given under `deny`, or
    ///   unknown (auth0-passkey-api.md §17).
    public func loginChallenge(_ request: LoginChallengeRequest) async throws(TenantError) -> RequestChallengeResponse {
        try await authentication.loginChallenge(request)
    }

    /// `POST /me/v1/authentication-methods`: opens a passkey enrollment for the token's user
    /// (auth0-passkey-api.md §5.2).
    ///
    /// - Parameters:
    ///   - accessToken: a My Account token with `create:me:authentication_methods`.
    ///   - request: `{"type": "passkey"}`, maybe with the connection and identity.
    /// - Returns: the pending method's ID (for the `Location` header) and the challenge.
    /// - Throws: `invalid_token` (401), `insufficient_scope` (403), `invalid_request` for another
    ///   type, connection or identity, `too_many_attempts` (429) for a locked-out user.
    public func enrollmentChallenge(accessToken: Secret?, _ request: EnrollmentChallengeRequest)
        async throws(TenantError) -> (methodID: String, challenge: CreationChallengeResponse)
    {
        try await myAccount.enrollmentChallenge(accessToken: accessToken, request)
    }

    /// `POST /me/v1/authentication-methods/{id}/verify`: verifies the registration and adds the
    /// passkey to the token's user (auth0-passkey-api.md §5.3).
    ///
    /// - Parameters:
    ///   - accessToken: a My Account token with `create:me:authentication_methods`.
    ///   - methodID: the path's method ID, percent-decoded (`passkey|new`).
    ///   - request: the `auth_session` and the registration response.
    ///   - userAgent: the client's `User-Agent`, reported back as `user_agent`.
    /// - Returns: the new authentication method.
    /// - Throws: `invalid_token` (401), `insufficient_scope` (403), `not_found` (404) for another
    ///   method ID, `invalid_grant` for a session that is unknown, used, expired or another
    ///   user's, or a response that does not verify; `invalid_request` for a registered credential.
    public func verifyEnrollment(
        accessToken: Secret?, methodID: String, _ request: EnrollmentVerifyRequest, userAgent: String?
    ) async throws(TenantError) -> AuthenticationMethod {
        try await myAccount.verifyEnrollment(
            accessToken: accessToken, methodID: methodID, request, userAgent: userAgent)
    }

    /// `GET /me/v1/authentication-methods` (auth0-passkey-api.md §5.5): the user's passkeys.
    ///
    /// - Parameters:
    ///   - accessToken: a My Account token with `read:me:authentication_methods`.
    ///   - type: the `type` filter, if any.
    /// - Throws: `invalid_token` (401), `insufficient_scope` (403).
    public func authenticationMethods(accessToken: Secret?, type: String? = nil) async throws(TenantError)
        -> AuthenticationMethodList
    {
        try await myAccount.authenticationMethods(accessToken: accessToken, type: type)
    }

    /// `GET /me/v1/authentication-methods/{id}`: one of the user's passkeys.
    ///
    /// - Throws: `invalid_token` (401), `insufficient_scope` (403), `not_found` (404).
    public func authenticationMethod(accessToken: Secret?, id: String) async throws(TenantError)
        -> AuthenticationMethod
    {
        try await myAccount.authenticationMethod(accessToken: accessToken, id: id)
    }

    /// `DELETE /me/v1/authentication-methods/{id}`: removes one of the user's passkeys.
    ///
    /// - Throws: `invalid_token` (401), `insufficient_scope` (403), `not_found` (404).
    public func deleteAuthenticationMethod(accessToken: Secret?, id: String) async throws(TenantError) {
        try await myAccount.deleteAuthenticationMethod(accessToken: accessToken, id: id)
    }

    /// `PATCH /me/v1/authentication-methods/{id}`: names one of the user's passkeys
    /// (auth0-passkey-api.md §19.1).
    ///
    /// **[local]** The name is stored and returned on passkeys; `preferred_authentication_method`
    /// is for phone methods, so a passkey refuses it.
    ///
    /// - Parameters:
    ///   - accessToken: a My Account token with `update:me:authentication_methods`.
    ///   - id: the path's method ID, percent-decoded.
    ///   - update: the body.
    /// - Returns: the renamed method.
    /// - Throws: `invalid_token` (401), `insufficient_scope` (403), `invalid_request` (400) for
    ///   `preferred_authentication_method`, a missing name or one outside 1–128 characters,
    ///   `not_found` (404) for a method the user does not have.
    public func updateAuthenticationMethod(accessToken: Secret?, id: String, _ update: AuthenticationMethodUpdate)
        async throws(TenantError) -> AuthenticationMethod
    {
        try await myAccount.updateAuthenticationMethod(accessToken: accessToken, id: id, update)
    }

    /// `GET /me/v1/factors`: the factors this tenant lets the user enroll (auth0-passkey-api.md
    /// §19.2) — passkeys only, as a first factor.
    ///
    /// - Parameter accessToken: a My Account token with `read:me:factors`.
    /// - Throws: `invalid_token` (401), `insufficient_scope` (403).
    public func factors(accessToken: Secret?) async throws(TenantError) -> FactorList {
        try await myAccount.factors(accessToken: accessToken)
    }

    /// `POST /oauth/revoke` (auth0-passkey-api.md §6.2; RFC 7009): revokes a refresh token and the
    /// tokens rotated from the same login. An unknown token is not an error (RFC 7009 §2.2).
    ///
    /// - Throws: `invalid_client` (401) for an unknown client.
    public func revoke(_ request: RevokeRequest) async throws(TenantError) {
        try await authentication.revoke(request)
    }

    /// `POST /passkey/register`: opens a signup for a user who does not exist yet
    /// (auth0-passkey-api.md §1).
    ///
    /// - Parameter request: the client, the connection and the new user's profile.
    /// - Returns: the `auth_session` and the creation options, with a fresh user handle.
    /// - Throws: `invalid_client` (401) for an unknown client; `invalid_request` for an unknown
    ///   connection, a profile that lacks a required identifier, gives one the connection turned
    ///   off, has an unknown or malformed property, too much metadata, or an identifier that
    ///   belongs to a user already (auth0-passkey-api.md §18), and for an organization the
    ///   application's usage refuses or the tenant does not have; `access_denied` (403) for an
    ///   organization that does not take signups (§17).
    public func signupChallenge(_ request: SignupChallengeRequest) async throws(TenantError)
        -> CreationChallengeResponse
    {
        try await authentication.signupChallenge(request)
    }

    /// `POST /oauth/token`: the webauthn grant (signup or login, by the session), the authorization
    /// code grant of Web Auth, and the refresh grant, for the default audience or another one
    /// (auth0-passkey-api.md §3, §6.1, §6.4, §14.3); and the client credentials grant of the
    /// machine-to-machine client (§15.1, ``AuthenticationAPI/clientCredentials(_:)``).
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
        try await authentication.token(request)
    }
}
