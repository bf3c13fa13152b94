import HTTPTypes
public import Hummingbird
import NIOCore
import WebAuthn

extension PasskeyTenant {
    /// The tenant's routes (auth0-passkey-api.md §1–§6), with errors in each API's shape.
    ///
    /// - Returns: a router for `Application(router:)`, or for HummingbirdTesting's `.router`.
    public func router() -> Router<TenantRequestContext> {
        let router = Router(context: TenantRequestContext.self)
        router.add(middleware: ErrorMiddleware(shape: .authentication, realm: configuration.domain, logger: logger))
        router.post("passkey/register") { request, context in
            try await self.limitingAddress(context) { () async throws(TenantError) -> Response in
                TenantResponse.json(try await self.signupChallenge(self.decode(SignupChallengeRequest.self, request)))
            }
        }
        router.post("passkey/challenge") { request, context in
            try await self.limitingAddress(context) { () async throws(TenantError) -> Response in
                TenantResponse.json(try await self.loginChallenge(self.decode(LoginChallengeRequest.self, request)))
            }
        }
        router.post("oauth/token") { request, context in
            try await self.limitingAddress(context) { () async throws(TenantError) -> Response in
                TenantResponse.json(try await self.token(self.decode(TokenRequest.self, request)))
            }
        }
        router.post("oauth/revoke") { request, context in
            try await self.limitingAddress(context) { () async throws(TenantError) -> Response in
                try await self.revoke(self.decode(RevokeRequest.self, request))
                return TenantResponse.empty(status: .ok)
            }
        }
        router.get("userinfo") { request, _ in
            TenantResponse.json(try await self.userInfo(accessToken: Self.bearer(request)))
        }
        router.get(".well-known/jwks.json") { _, _ in TenantResponse.json(self.signer.jwks) }
        router.get(".well-known/openid-configuration") { _, _ in TenantResponse.json(self.discovery) }
        router.get("api/events") { request, _ in
            TenantResponse.json(try await self.events(accessToken: Self.bearer(request)))
        }
        addMyAccountRoutes(to: router.group("me/v1"))
        return router
    }

    /// My Account's passkey routes (auth0-passkey-api.md §5).
    private func addMyAccountRoutes(to group: RouterGroup<TenantRequestContext>) {
        let methods = group.add(
            middleware: ErrorMiddleware(shape: .myAccount, realm: configuration.domain, logger: nil))
        methods.post("authentication-methods") { request, _ in
            let user = try await self.myAccountUser(Self.bearer(request), scope: Self.createMethodsScope)
            let body = try await self.decode(EnrollmentChallengeRequest.self, request)
            let (id, challenge) = try await self.enrollmentChallenge(for: user, body)
            return TenantResponse.json(challenge, status: .accepted, headers: [.location: self.methodURL(id)])
        }
        methods.post("authentication-methods/:id/verify") { request, context in
            let user = try await self.myAccountUser(Self.bearer(request), scope: Self.createMethodsScope)
            let body = try await self.decode(EnrollmentVerifyRequest.self, request)
            let method = try await self.verifyEnrollment(
                for: user, methodID: Self.methodID(context), body, userAgent: request.headers[.userAgent])
            return TenantResponse.json(method, status: .created, headers: [.location: self.methodURL(method.id)])
        }
        methods.get("authentication-methods") { request, _ in
            let type = request.uri.queryParameters.get("type")
            return TenantResponse.json(
                try await self.authenticationMethods(accessToken: Self.bearer(request), type: type))
        }
        methods.get("authentication-methods/:id") { request, context in
            TenantResponse.json(
                try await self.authenticationMethod(accessToken: Self.bearer(request), id: Self.methodID(context)))
        }
        methods.delete("authentication-methods/:id") { request, context in
            try await self.deleteAuthenticationMethod(accessToken: Self.bearer(request), id: Self.methodID(context))
            return TenantResponse.empty(status: .noContent)
        }
    }

    /// OpenID Connect Discovery for this tenant.
    var discovery: OpenIDConfiguration {
        let base = configuration.issuer
        return OpenIDConfiguration(
            issuer: base, tokenEndpoint: base + "oauth/token", userinfoEndpoint: base + "userinfo",
            revocationEndpoint: base + "oauth/revoke", jwksURI: base + ".well-known/jwks.json",
            grantTypesSupported: [TokenRequest.webAuthnGrant, TokenRequest.refreshGrant],
            scopesSupported: Self.openIDScopes.sorted(),
            claimsSupported: UserClaims.CodingKeys.allCases.map(\.rawValue) + ["iss", "aud", "exp", "iat", "azp"])
    }

    /// `https://DOMAIN/me/v1/authentication-methods/<id>`, the `|` percent-encoded as Auth0 sends it.
    private func methodURL(_ id: String) -> String {
        "https://\(configuration.domain)/me/v1/authentication-methods/"
            + id.replacing("|", with: "%7C")
    }

    /// The path's method ID, percent-decoded: `passkey%7Cnew` and `passkey|new` name one method.
    private static func methodID(_ context: TenantRequestContext) throws(TenantError) -> String {
        guard let raw = context.parameters.get("id") else { throw .invalidRequest("missing method ID") }
        return percentDecoded(raw)
    }

    /// `s` with each `%XX` replaced by its byte (RFC 3986 §2.1); malformed escapes stay as they are.
    private static func percentDecoded(_ s: String) -> String {
        var bytes: [UInt8] = []
        var rest = Array(s.utf8)[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2,
                let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1).
    static func bearer(_ request: Request) -> Secret? {
        guard let value = request.headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return Secret(String(parts[1].filter { !$0.isWhitespace }))
    }

    /// Reads a JSON body of at most `maxBodySize` bytes.
    ///
    /// - Throws: `unsupported_media_type` (415) for another content type; `payload_too_large` (413);
    ///   `invalid_request` naming the member for JSON that does not decode.
    func decode<Body: Decodable>(_ type: Body.Type, _ request: Request) async throws(TenantError) -> Body {
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        guard contentType.split(separator: ";").first?.filter({ !$0.isWhitespace }) == "application/json"
        else {
            throw TenantError(.unsupportedMediaType, status: 415, "The body must be application/json.")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: configuration.maxBodySize)
        } catch {
            throw TenantError(
                .payloadTooLarge, status: 413, "The request body is larger than \(configuration.maxBodySize) bytes.")
        }
        do {
            return try WebAuthnJSON.decode(type, from: Array(buffer.readableBytesView))
        } catch {
            throw .invalidRequest("Malformed body: \(error.reason)")
        }
    }

    /// Runs an Authentication API call under the client address's lockout: refused while locked
    /// out, and each refusal counts.
    private func limitingAddress(
        _ context: TenantRequestContext, _ body: () async throws(TenantError) -> Response
    ) async throws(TenantError) -> Response {
        let keys: [AttemptLimiter.Key] = [.address(context.remoteAddress ?? "unknown")]
        try await checkAttempts(keys)
        return try await counting(keys, body)
    }
}
