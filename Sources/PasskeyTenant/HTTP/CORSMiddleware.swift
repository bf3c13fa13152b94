import HTTPTypes
import Hummingbird

/// The CORS protocol (Fetch §3.2) on the routes a browser application calls from its own origin:
/// `/oauth/token`, `/oauth/revoke`, `/userinfo`, `/.well-known/…`, `/passkey/…` and `/me/…`
/// (what auth0-spa-js and the SDKs built on it call with `fetch`).
///
/// An `Origin` is allowed when it is one of some application's Allowed Web Origins or Allowed
/// Origins (``AllowedOrigin``); the set is made once, from the applications, when the router is.
///
/// - A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`, Fetch §3.2.2) from an
///   allowed origin gets `204` with `Access-Control-Allow-Origin: <that origin>`,
///   `-Allow-Credentials: true`, `-Allow-Methods`, `-Allow-Headers` (`Authorization`,
///   `Content-Type`, `DPoP`, `Auth0-Client`) and `-Max-Age`; from any other origin, `403` with
///   no CORS header, so the browser refuses the request it was asked about.
/// - Any other request from an allowed origin is answered as it would be, plus
///   `Access-Control-Allow-Origin: <that origin>`, `-Allow-Credentials: true` and
///   `-Expose-Headers: DPoP-Nonce, WWW-Authenticate` (RFC 9449 §8, RFC 6750 §3 headers a client
///   reads). From another origin it gets no CORS header: the browser hides the answer from the
///   page (Fetch §3.2.3, the CORS check).
/// - `*` is never sent, and `Vary: Origin` is on every answer of these routes, allowed or not,
///   since the answer differs by origin (Fetch §3.2.5, "CORS protocol and HTTP caches").
///
/// The login page, `/authorize` and `/v2/logout` are navigations, not CORS requests, and get none
/// of this; the Management API is for servers.
struct CORSMiddleware: RouterMiddleware {
    typealias Context = TenantRequestContext

    /// Every application's Allowed Web Origins and Allowed Origins.
    let origins: [AllowedOrigin]

    /// The origins of `applications`.
    init(applications: [RegisteredApplication]) {
        var origins: [AllowedOrigin] = []
        for origin in applications.flatMap({ $0.webOrigins + $0.allowedOrigins }) where !origins.contains(origin) {
            origins.append(origin)
        }
        self.origins = origins
    }

    /// The paths with CORS; one ending in `/` stands for everything under it.
    static let paths = ["/oauth/token", "/oauth/revoke", "/userinfo", "/.well-known/", "/passkey/", "/me/"]
    static let allowedMethods = "GET, POST, PATCH, DELETE"
    static let allowedHeaders = "Authorization, Content-Type, DPoP, Auth0-Client"
    static let exposedHeaders = "DPoP-Nonce, WWW-Authenticate"
    /// How long a browser may keep a preflight's answer, in seconds (Chromium keeps at most 7200).
    static let maxAge = "7200"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard Self.paths.contains(where: { $0.hasSuffix("/") ? path.hasPrefix($0) : path == $0 }) else {
            return try await next(request, context)
        }
        let origin = request.headers[.origin]
        let allowed = origin.flatMap { origin in origins.contains { $0.admits(origin) } ? origin : nil }
        if request.method == .options, origin != nil, request.headers[.accessControlRequestMethod] != nil {
            guard let allowed else {
                return Response(status: .forbidden, headers: [.vary: "Origin"])
            }
            var headers = Self.headers(allowed)
            headers[.vary] = "Origin"
            headers[.accessControlAllowMethods] = Self.allowedMethods
            headers[.accessControlAllowHeaders] = Self.allowedHeaders
            headers[.accessControlMaxAge] = Self.maxAge
            return Response(status: .noContent, headers: headers)
        }
        var response = try await next(request, context)
        response.headers.append(HTTPField(name: .vary, value: "Origin"))
        if let allowed {
            response.headers.append(contentsOf: Self.headers(allowed))
            response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        }
        return response
    }

    /// The headers of every answer to `origin`, an allowed one.
    private static func headers(_ origin: String) -> HTTPFields {
        [.accessControlAllowOrigin: origin, .accessControlAllowCredentials: "true"]
    }
}
