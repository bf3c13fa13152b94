import HTTPTypes
public import Hummingbird
import WebAuthn

extension PasskeyTenant {
    /// The tenant's routes (auth0-passkey-api.md §1–§6, §14, §15), with errors in each API's shape.
    ///
    /// Bodies are read and answers written by the context's codecs (``TenantRequestContext``);
    /// the Authentication API's calls and the login page's API run under the client address's
    /// lockout.
    ///
    /// - Parameter servesTLS: whether the tenant is reached over HTTPS: the login page's cookies
    ///   are then `Secure` and its origin `https://`.
    /// - Returns: a router for `Application(router:)`, or for HummingbirdTesting's `.router`.
    public func router(servesTLS: Bool = false) -> Router<TenantRequestContext> {
        let router = Router(context: TenantRequestContext.self)
        router.add(
            middleware: DPoPNonceMiddleware(
                tenant: self, paths: ["/oauth/token", "/userinfo", "/api/events", "/me/v1/"]))
        router.add(middleware: ErrorMiddleware(shape: .authentication, realm: configuration.domain, logger: logger))
        router.add(middleware: BodyLimitMiddleware(limit: configuration.maxBodySize))
        let limited = router.group().add(middleware: AttemptLimitMiddleware(tenant: self))
        limited.post("passkey/register") { request, context in
            try await self.signupChallenge(request.decode(as: SignupChallengeRequest.self, context: context))
        }
        limited.post("passkey/challenge") { request, context in
            try await self.loginChallenge(request.decode(as: LoginChallengeRequest.self, context: context))
        }
        limited.post("oauth/token") { request, context in
            let proof = try await self.dpopProof(request, secure: servesTLS, at: .tokenEndpoint)
            return try await self.token(
                TenantRequestDecoder().decode(TokenRequest.self, from: request, context: context, formAllowed: true),
                proof: proof)
        }
        limited.post("oauth/revoke") { request, context in
            try await self.revoke(request.decode(as: RevokeRequest.self, context: context))
            return TenantResponseEncoder.empty(status: .ok)
        }
        router.get("userinfo") { request, _ in
            try await self.userInfo(accessToken: self.accessToken(request, secure: servesTLS))
        }
        router.get(".well-known/jwks.json") { _, _ in self.signer.jwks }
        router.get(".well-known/openid-configuration") { _, _ in self.discovery }
        router.get("api/events") { request, _ in
            try await self.events(accessToken: self.accessToken(request, secure: servesTLS))
        }
        addMyAccountRoutes(to: router.group("me/v1"), secure: servesTLS)
        addManagementRoutes(to: router.group("api/v2"))
        addWebAuthRoutes(to: router, limited: limited, secure: servesTLS)
        return router
    }

    /// My Account's passkey routes (auth0-passkey-api.md §5, §19), each reading its access token
    /// through ``accessToken(_:secure:)`` (DPoP-bound tokens with their proof, §16.5).
    private func addMyAccountRoutes(to group: RouterGroup<TenantRequestContext>, secure: Bool) {
        let methods = group.add(
            middleware: ErrorMiddleware(shape: .myAccount, realm: configuration.domain, logger: nil))
        methods.post("authentication-methods") { request, context in
            let user = try await self.myAccountUser(
                self.accessToken(request, secure: secure), scope: Self.createMethodsScope)
            let body = try await request.decode(as: EnrollmentChallengeRequest.self, context: context)
            let (id, challenge) = try await self.enrollmentChallenge(for: user, body)
            return EditedResponse(status: .accepted, headers: [.location: self.methodURL(id)], response: challenge)
        }
        methods.post("authentication-methods/:id/verify") { request, context in
            let user = try await self.myAccountUser(
                self.accessToken(request, secure: secure), scope: Self.createMethodsScope)
            let body = try await request.decode(as: EnrollmentVerifyRequest.self, context: context)
            let method = try await self.verifyEnrollment(
                for: user, methodID: Self.methodID(context), body, userAgent: request.headers[.userAgent])
            return EditedResponse(status: .created, headers: [.location: self.methodURL(method.id)], response: method)
        }
        methods.get("authentication-methods") { request, _ in
            try await self.authenticationMethods(
                accessToken: self.accessToken(request, secure: secure), type: request.uri.queryParameters.get("type"))
        }
        methods.get("authentication-methods/:id") { request, context in
            try await self.authenticationMethod(
                accessToken: self.accessToken(request, secure: secure), id: Self.methodID(context))
        }
        methods.delete("authentication-methods/:id") { request, context in
            try await self.deleteAuthenticationMethod(
                accessToken: self.accessToken(request, secure: secure), id: Self.methodID(context))
            return TenantResponseEncoder.empty(status: .noContent)
        }
        methods.patch("authentication-methods/:id") { request, context in
            let user = try await self.myAccountUser(
                self.accessToken(request, secure: secure), scope: Self.updateMethodsScope)
            let body = try await request.decode(as: AuthenticationMethodUpdate.self, context: context)
            return try await self.updateAuthenticationMethod(for: user, id: Self.methodID(context), body)
        }
        methods.get("factors") { request, _ in
            try await self.factors(accessToken: self.accessToken(request, secure: secure))
        }
    }

    /// OpenID Connect Discovery for this tenant.
    var discovery: OpenIDConfiguration {
        let base = configuration.issuer
        return OpenIDConfiguration(
            issuer: base, authorizationEndpoint: base + "authorize", tokenEndpoint: base + "oauth/token",
            userinfoEndpoint: base + "userinfo", revocationEndpoint: base + "oauth/revoke",
            endSessionEndpoint: base + "v2/logout", jwksURI: base + ".well-known/jwks.json",
            grantTypesSupported: [
                TokenRequest.webAuthnGrant, TokenRequest.authorizationCodeGrant, TokenRequest.refreshGrant,
                TokenRequest.clientCredentialsGrant,
            ],
            scopesSupported: Self.openIDScopes.sorted(),
            claimsSupported: UserClaims.CodingKeys.allCases.map(\.rawValue)
                + ["iss", "aud", "exp", "iat", "azp", "auth_time", "nonce", "amr", "org_id", "org_name"])
    }

    /// `https://DOMAIN/me/v1/authentication-methods/<id>`, the `|` percent-encoded as Auth0 sends it.
    private func methodURL(_ id: String) -> String {
        "https://\(configuration.domain)/me/v1/authentication-methods/" + PercentEncoding.encode(id)
    }

    /// The path's method ID, percent-decoded: `passkey%7Cnew` and `passkey|new` name one method.
    private static func methodID(_ context: TenantRequestContext) throws(TenantError) -> String {
        guard let raw = context.parameters.get("id") else { throw .invalidRequest("missing method ID") }
        return PercentEncoding.decode(raw)
    }

    /// The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1), without DPoP's
    /// checks: for routes that take no DPoP-bound token; the others read ``accessToken(_:secure:)``.
    static func bearer(_ request: Request) -> Secret? {
        guard let (scheme, token) = authorization(request), scheme == "bearer" else { return nil }
        return token
    }
}
