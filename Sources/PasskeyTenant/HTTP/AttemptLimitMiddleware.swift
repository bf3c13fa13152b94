import HTTPTypes
import Hummingbird

/// Puts the Authentication API's calls under the client address's lockout (Auth0's brute-force
/// protection, auth0-passkey-api.md §7.1): a locked-out address is refused with
/// `too_many_attempts` (429) before the route runs, and each refusal the route answers counts.
///
/// The client address is the peer's, or, from a trusted proxy, the one its `X-Forwarded-For`
/// names (``TrustedProxy/clientAddress(peer:forwardedFor:proxies:)``).
struct AttemptLimitMiddleware: RouterMiddleware {
    let services: TenantServices

    func handle(
        _ request: Request, context: TenantRequestContext,
        next: (Request, TenantRequestContext) async throws -> Response
    ) async throws -> Response {
        let address = TrustedProxy.clientAddress(
            peer: context.remoteAddress, forwardedFor: request.headers[values: .xForwardedFor],
            proxies: services.configuration.trustedProxies)
        let keys: [AttemptLimiter.Key] = [.address(address ?? "unknown")]
        try await services.checkAttempts(keys)
        do {
            return try await next(request, context)
        } catch let error as TenantError {
            await services.recordFailure(error, keys)
            throw error
        }
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`: the addresses a request was forwarded for, the nearest proxy's last.
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
