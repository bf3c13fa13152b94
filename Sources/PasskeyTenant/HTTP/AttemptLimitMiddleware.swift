import Hummingbird

/// Puts the Authentication API's calls under the client address's lockout (Auth0's brute-force
/// protection, auth0-passkey-api.md §7.1): a locked-out address is refused with
/// `too_many_attempts` (429) before the route runs, and each refusal the route answers counts.
struct AttemptLimitMiddleware: RouterMiddleware {
    let services: TenantServices

    func handle(
        _ request: Request, context: TenantRequestContext,
        next: (Request, TenantRequestContext) async throws -> Response
    ) async throws -> Response {
        let keys: [AttemptLimiter.Key] = [.address(context.remoteAddress ?? "unknown")]
        try await services.checkAttempts(keys)
        do {
            return try await next(request, context)
        } catch let error as TenantError {
            await services.recordFailure(error, keys)
            throw error
        }
    }
}
