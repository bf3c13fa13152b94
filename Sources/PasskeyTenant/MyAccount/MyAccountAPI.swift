import FoundationEssentials
import HTTPTypes
import Hummingbird
import WebAuthn

/// My Account's passkey routes under `/me/v1` (auth0-passkey-api.md §5, §19), errors in My
/// Account's shape, each reading its access token through ``TenantServices/accessToken(_:secure:)``
/// (DPoP-bound tokens with their proof, §16.5).
struct MyAccountAPI: TenantRoutes {
    let services: TenantServices

    func addRoutes(to router: Router<TenantRequestContext>, secure: Bool) {
        addMyAccountRoutes(to: router.group("me/v1"), secure: secure)
    }
}

extension MyAccountAPI {
    /// The scope enrollment needs (auth0-passkey-api.md §5.1).
    static let createMethodsScope = "create:me:authentication_methods"

    /// The user a My Account token belongs to, checked for audience and scope.
    func myAccountUser(_ token: Secret?, scope: String) async throws(TenantError) -> TenantUser {
        let claims = try await services.authorize(token, audiences: services.isMyAccount, scope: scope)
        guard let user = try await store.user(id: claims.sub) else {
            throw TenantError(.invalidToken, status: 401, "The token's user does not exist any more.")
        }
        return user
    }

    /// The scope renaming needs (auth0-passkey-api.md §19.1).
    static let updateMethodsScope = "update:me:authentication_methods"

    /// My Account's passkey routes (auth0-passkey-api.md §5, §19), each reading its access token
    /// through ``TenantServices/accessToken(_:secure:)`` (DPoP-bound tokens with their proof, §16.5).
    private func addMyAccountRoutes(to group: RouterGroup<TenantRequestContext>, secure: Bool) {
        let methods = group.add(
            middleware: ErrorMiddleware(shape: .myAccount, realm: configuration.domain, logger: nil))
        methods.post("authentication-methods") { request, context in
            let user = try await self.myAccountUser(
                self.services.accessToken(request, secure: secure), scope: Self.createMethodsScope)
            let body = try await request.decode(as: EnrollmentChallengeRequest.self, context: context)
            let (id, challenge) = try await self.enrollmentChallenge(for: user, body)
            return EditedResponse(status: .accepted, headers: [.location: self.methodURL(id)], response: challenge)
        }
        methods.post("authentication-methods/:id/verify") { request, context in
            let user = try await self.myAccountUser(
                self.services.accessToken(request, secure: secure), scope: Self.createMethodsScope)
            let body = try await request.decode(as: EnrollmentVerifyRequest.self, context: context)
            let method = try await self.verifyEnrollment(
                for: user, methodID: Self.methodID(context), body, userAgent: request.headers[.userAgent])
            return EditedResponse(status: .created, headers: [.location: self.methodURL(method.id)], response: method)
        }
        methods.get("authentication-methods") { request, _ in
            try await self.authenticationMethods(
                accessToken: self.services.accessToken(request, secure: secure),
                type: request.uri.queryParameters.get("type"))
        }
        methods.get("authentication-methods/:id") { request, context in
            try await self.authenticationMethod(
                accessToken: self.services.accessToken(request, secure: secure), id: Self.methodID(context))
        }
        methods.delete("authentication-methods/:id") { request, context in
            try await self.deleteAuthenticationMethod(
                accessToken: self.services.accessToken(request, secure: secure), id: Self.methodID(context))
            return TenantResponseEncoder.empty(status: .noContent)
        }
        methods.patch("authentication-methods/:id") { request, context in
            let user = try await self.myAccountUser(
                self.services.accessToken(request, secure: secure), scope: Self.updateMethodsScope)
            let body = try await request.decode(as: AuthenticationMethodUpdate.self, context: context)
            return try await self.updateAuthenticationMethod(for: user, id: Self.methodID(context), body)
        }
        methods.get("factors") { request, _ in
            try await self.factors(accessToken: self.services.accessToken(request, secure: secure))
        }
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
}
