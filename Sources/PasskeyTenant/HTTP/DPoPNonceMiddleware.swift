import HTTPTypes
import Hummingbird

/// Puts a fresh `DPoP-Nonce` (RFC 9449 §8, §9) on every answer of the token endpoint and of the
/// resource servers, errors included, when the tenant requires nonces. Outermost, so it sees
/// every answer after ``ErrorMiddleware`` has rendered it.
struct DPoPNonceMiddleware: RouterMiddleware {
    typealias Context = TenantRequestContext

    let services: TenantServices
    /// The paths answered with a nonce; a path ending in `/` stands for everything under it.
    let paths: [String]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        let path = request.uri.path
        if services.configuration.requiresDPoPNonce,
            paths.contains(where: { $0.hasSuffix("/") ? path.hasPrefix($0) : path == $0 })
        {
            response.headers[.dpopNonce] = services.dpopNonces.next()
        }
        return response
    }
}

extension HTTPField.Name {
    /// `DPoP`, the proof header (RFC 9449 §4.1). The literal is a valid field name.
    static let dpop = HTTPField.Name("DPoP")!
    /// `DPoP-Nonce`, the server's nonce (RFC 9449 §8.1). The literal is a valid field name.
    static let dpopNonce = HTTPField.Name("DPoP-Nonce")!
    /// `Host` as an HTTP/1 request may still carry it, before or instead of `:authority`.
    static let host = HTTPField.Name("Host")!
}
