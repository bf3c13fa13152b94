import FoundationEssentials
import HTTPTypes
import Hummingbird
import WebAuthn

/// The Management API under `/api/v2` (auth0-passkey-api.md §15): users and their passkeys, for
/// the machine-to-machine client's tokens.
struct ManagementAPI: TenantRoutes {
    let services: TenantServices

    func addRoutes(to router: Router<TenantRequestContext>, secure: Bool) {
        addManagementRoutes(to: router.group("api/v2"))
    }
}

extension ManagementAPI {
    /// The claims of a Management API token: signed by this tenant, unexpired, for the management
    /// audience, issued by the client credentials grant to the machine-to-machine client, and
    /// granting `scope` (auth0-passkey-api.md §15.4).
    ///
    /// A user's token is refused even when an API was configured with the management audience:
    /// only the machine-to-machine client's tokens reach `/api/v2`.
    ///
    /// - Throws: `invalid_token` (401) for a missing, malformed, foreign, expired or revoked token,
    ///   one for another audience or not issued by the client credentials grant;
    ///   `insufficient_scope` (403), in Auth0's words, when `scope` is not granted.
    @discardableResult
    func managementClaims(_ token: Secret?, scope: String) async throws(TenantError) -> AccessTokenClaims {
        let audience = configuration.managementAudience
        let claims = try await services.authorize(token, audiences: { $0 == audience }, scope: nil)
        guard claims.gty == TenantServices.clientCredentialsGty, claims.sub == services.managementClientID + "@clients"
        else {
            throw TenantError(.invalidToken, status: 401, "The access token was not issued to a Management API client.")
        }
        guard claims.scopes.contains(scope) else {
            throw TenantError(.insufficientScope, status: 403, "Insufficient scope, expected any of: \(scope)")
        }
        return claims
    }

    /// The Management API's routes under `api/v2` (auth0-passkey-api.md §15), each behind its
    /// scope; errors in the Management API's shape (``ErrorMiddleware`` picks it for `/api/v2/`).
    ///
    /// | route | scope | success |
    /// |---|---|---|
    /// | `POST users` | `create:users` | 201, the user |
    /// | `GET users?q=&search_engine=v3&page=&per_page=&include_totals=&sort=&fields=` | `read:users` | 200, an array, or a page with `include_totals=true` |
    /// | `GET users/{id}` | `read:users` | 200, the user |
    /// | `GET users-by-email?email=` | `read:users` | 200, an array |
    /// | `DELETE users/{id}` | `delete:users` | 204 |
    /// | `GET users/{id}/authentication-methods` | `read:authentication_methods` | 200, an array, or a page with `include_totals=true` |
    /// | `POST users/{id}/authentication-methods` | `create:authentication_methods` | 201, the method |
    /// | `DELETE users/{id}/authentication-methods/{method id}` | `delete:authentication_methods` | 204 |
    ///
    /// The token is checked before the body is read; IDs in paths are percent-decoded.
    func addManagementRoutes(to group: RouterGroup<TenantRequestContext>) {
        group.post("users") { request, context in
            try await self.managementClaims(TenantServices.bearer(request), scope: "create:users")
            let body = try await request.decode(as: NewManagedUser.self, context: context)
            return TenantResponseEncoder.json(try await self.createManagedUser(body), status: .created)
        }
        group.get("users") { request, _ in
            try await self.managementClaims(TenantServices.bearer(request), scope: "read:users")
            return try await self.listManagedUsers(UserListRequest(FormParameters(request.uri.query)))
        }
        group.get("users/:id") { request, context in
            try await self.managementClaims(TenantServices.bearer(request), scope: "read:users")
            return TenantResponseEncoder.json(try await self.managedUser(id: Self.pathID(context, "id")))
        }
        group.get("users-by-email") { request, _ in
            try await self.managementClaims(TenantServices.bearer(request), scope: "read:users")
            let users = try await self.managedUsers(email: request.uri.queryParameters.get("email"))
            return TenantResponseEncoder.json(users)
        }
        group.delete("users/:id") { request, context in
            try await self.managementClaims(TenantServices.bearer(request), scope: "delete:users")
            try await self.deleteManagedUser(id: Self.pathID(context, "id"))
            return TenantResponseEncoder.empty(status: .noContent)
        }
        group.get("users/:id/authentication-methods") { request, context in
            try await self.managementClaims(TenantServices.bearer(request), scope: "read:authentication_methods")
            let query = request.uri.queryParameters
            let page = try await self.managedAuthenticationMethods(
                userID: Self.pathID(context, "id"), page: Self.integer(query.get("page"), "page", default: 0),
                perPage: Self.integer(query.get("per_page"), "per_page", default: 50))
            return try Self.flag(query.get("include_totals"), "include_totals")
                ? TenantResponseEncoder.json(page) : TenantResponseEncoder.json(page.authenticators)
        }
        group.post("users/:id/authentication-methods") { request, context in
            try await self.managementClaims(TenantServices.bearer(request), scope: "create:authentication_methods")
            let body = try await request.decode(as: NewManagedPasskey.self, context: context)
            let method = try await self.createManagedPasskey(userID: Self.pathID(context, "id"), body)
            return TenantResponseEncoder.json(method, status: .created)
        }
        group.delete("users/:id/authentication-methods/:method") { request, context in
            try await self.managementClaims(TenantServices.bearer(request), scope: "delete:authentication_methods")
            try await self.deleteManagedAuthenticationMethod(
                userID: Self.pathID(context, "id"), id: Self.pathID(context, "method"))
            return TenantResponseEncoder.empty(status: .noContent)
        }
    }

    /// A path parameter, percent-decoded: `auth0%7C65f0…` and `auth0|65f0…` name one user.
    static func pathID(_ context: TenantRequestContext, _ name: String) throws(TenantError) -> String {
        guard let raw = context.parameters.get(name) else {
            throw TenantError(.invalidRequest, "Path validation error: missing \(name).")
        }
        return PercentEncoding.decode(raw)
    }

    /// A non-negative integer query parameter, or `default` when absent.
    ///
    /// - Throws: `invalid_query_string` (400).
    static func integer(_ text: String?, _ name: String, default value: Int) throws(TenantError) -> Int {
        guard let text else { return value }
        guard let number = Int(text), number >= 0 else {
            throw TenantError(.invalidQueryString, "Query validation error: \(name) must be a non-negative integer.")
        }
        return number
    }

    /// A boolean query parameter (`true` or `false`); false when absent.
    ///
    /// - Throws: `invalid_query_string` (400).
    static func flag(_ text: String?, _ name: String) throws(TenantError) -> Bool {
        switch text {
        case nil, "false": return false
        case "true": return true
        default: throw TenantError(.invalidQueryString, "Query validation error: \(name) must be true or false.")
        }
    }
}
