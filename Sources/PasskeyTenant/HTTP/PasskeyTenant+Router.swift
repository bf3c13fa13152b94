public import Hummingbird

extension PasskeyTenant {
    /// The tenant's routes (auth0-passkey-api.md §1–§6, §14, §15), with errors in each API's shape:
    /// the routes of each of its APIs (``TenantRoutes``) behind the tenant's middleware.
    ///
    /// Bodies are read and answers written by the context's codecs (``TenantRequestContext``);
    /// the Authentication API's calls and the login page's API run under the client address's
    /// lockout.
    ///
    /// - Parameter servesTLS: whether the tenant is reached over HTTPS: the login page's cookies
    ///   are then `Secure` and its origin `https://`.
    /// - Returns: a router for `Application(router:)`, or for HummingbirdTesting's `.router`.
    public func router(servesTLS: Bool = false) -> Router<TenantRequestContext> {
        TenantRouter.make(services, servesTLS: servesTLS, routes: routes)
    }
}
