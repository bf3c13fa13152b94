import Hummingbird

/// One API of the tenant as a route collection over the shared ``TenantServices``: built from the
/// services alone, so a test can serve one API on a router of its own (``TenantRouter/make(_:servesTLS:routes:)``).
///
/// The conformers: ``AuthenticationAPI`` (native passkeys, `/oauth/token`, revoke, userinfo,
/// JWKS, discovery), ``WebAuthAPI`` (`/authorize`, the login page's API, logout),
/// ``MyAccountAPI``, ``ManagementAPI`` and ``ResourceServer`` (the sample API).
protocol TenantRoutes: Sendable {
    /// What the API shares with the others.
    var services: TenantServices { get }

    /// The API over `services`.
    init(services: TenantServices)

    /// Adds the API's routes to `router`.
    ///
    /// - Parameters:
    ///   - router: the tenant's router, its middleware (errors, body limit, DPoP nonces) in place.
    ///   - secure: whether the tenant is reached over HTTPS (cookies, DPoP `htu`, page origins).
    func addRoutes(to router: Router<TenantRequestContext>, secure: Bool)
}

extension TenantRoutes {
    /// The configuration, with the client ID resolved.
    var configuration: TenantConfiguration { services.configuration }
    /// The store.
    var store: any TenantStore { services.store }
    /// Where time is read.
    var clock: TenantClock { services.clock }
    /// The application's client ID.
    var clientID: String { services.clientID }

    /// A group of `router` under the client address's lockout (``AttemptLimitMiddleware``).
    func limited(_ router: Router<TenantRequestContext>) -> RouterGroup<TenantRequestContext> {
        router.group().add(middleware: AttemptLimitMiddleware(services: services))
    }
}

/// The tenant's router: its middleware, then the routes of each API.
enum TenantRouter {
    /// A router with the tenant's middleware (CORS, DPoP nonces, errors in the Authentication API's
    /// shape, the body limit) and the routes of `routes`.
    ///
    /// - Parameters:
    ///   - services: the shared services.
    ///   - servesTLS: whether the tenant is reached over HTTPS.
    ///   - routes: the APIs to serve.
    /// - Returns: the router.
    static func make(
        _ services: TenantServices, servesTLS: Bool, routes: [any TenantRoutes]
    ) -> Router<TenantRequestContext> {
        let router = Router(context: TenantRequestContext.self)
        router.add(middleware: CORSMiddleware(applications: services.applications))
        router.add(
            middleware: DPoPNonceMiddleware(
                services: services, paths: ["/oauth/token", "/userinfo", "/api/events", "/me/v1/"]))
        router.add(
            middleware: ErrorMiddleware(
                shape: .authentication, realm: services.configuration.domain, logger: services.logger))
        router.add(middleware: BodyLimitMiddleware(limit: services.configuration.maxBodySize))
        for collection in routes {
            collection.addRoutes(to: router, secure: servesTLS)
        }
        return router
    }
}
