import HTTPTypes
import Hummingbird
import JSONBodies
import PasskeyAuthenticator
import WebAuthn

extension ControlServer {
    /// The page bridge's routes: `/bridge/create|get|abort|signal`, called by the bridge script
    /// from a page with its capability instead of the server's token, and answered with CORS
    /// headers for the page's origin (Fetch Standard §3.2) so the page can read them; and
    /// `/bridge/relay`, where a relay states the page's origin.
    func addBridgeRoutes(to group: RouterGroup<ControlRequestContext>) {
        group.add(middleware: BridgeMiddleware())
        for route in BridgeRoute.allCases {
            group.on(RouterPath(route.rawValue), method: .options) { _, _ in Response(status: .noContent) }
            group.post(RouterPath(route.rawValue)) { request, context in
                let caller = try await pageCaller(request)
                let body = try await JSONRequestDecoder.control.bytes(of: request, limit: Self.maxBodySize)
                return ControlValue(
                    try await bridgeCommand(route, BridgeBody(bytes: body), caller: caller))
            }
        }
        group.post("relay") { request, context in
            let body = try await JSONRequestDecoder.control.bytes(of: request, limit: Self.maxBodySize)
            let relayed = try BridgeBody(bytes: body).decode(BridgeRelayHead.self)
            let caller = try await relayCaller(
                capability: ControlToken.bearer(request.headers[.authorization]), origin: relayed.origin,
                topOrigin: relayed.topOrigin)
            return ControlValue(
                try await bridgeCommand(relayed.route, relayed.command, caller: caller))
        }
    }

    /// A page's capability and origin: the `Origin` the browser set (RFC 6454 §7), which a page
    /// cannot choose, is the client's origin.
    ///
    /// - Throws: ``ControlError``: `SecurityError` without an origin, `unauthorized` for an
    ///   unknown capability, `forbidden` for an origin it was not handed to.
    func pageCaller(_ request: Request) async throws(ControlError) -> BridgeCaller {
        try await pageCaller(
            origin: request.headers[.origin], capability: ControlToken.bearer(request.headers[.authorization]))
    }

    /// A page's caller from its `Origin` header and capability (a request's, or a socket's handshake's).
    func pageCaller(origin header: String?, capability: String?) async throws(ControlError) -> BridgeCaller {
        guard let header, header != "null", let origin = try? WebOrigin(header) else {
            throw ControlError("SecurityError", status: 403, "a bridge request comes from a page with an origin")
        }
        guard let capability else { throw .unknownBridge }
        let grant = try await service.bridgeGrant(capability: capability, origin: origin)
        return BridgeCaller(grant: grant, origin: origin, relayed: false, statedTopOrigin: nil)
    }

    /// A relay's caller: its capability must be a relay's
    /// (``ControlService/bridgeRelay(session:authenticator:origins:)``), and the origins are its statement.
    ///
    /// - Throws: ``ControlError``: `unauthorized` for an unknown capability or a page's,
    ///   `SecurityError` for an origin that does not parse, `forbidden` for one it may not state.
    func relayCaller(capability: String?, origin: String?, topOrigin: String?) async throws(ControlError)
        -> BridgeCaller
    {
        guard let capability else { throw .unknownBridge }
        guard let origin else { throw .invalidArgument("a relay states each request's origin") }
        let pageOrigin = try callerOrigin(origin, "origin")
        let grant = try await service.bridgeGrant(capability: capability, origin: pageOrigin)
        guard grant.relay else {
            throw ControlError("unauthorized", status: 401, "a page's bridge capability cannot state an origin")
        }
        return BridgeCaller(
            grant: grant, origin: pageOrigin, relayed: true,
            statedTopOrigin: try topOrigin.map { (text) throws(ControlError) in try callerOrigin(text, "topOrigin") })
    }
}

extension ControlServer {
    /// A ceremony's body, from the control API or a page bridge; a malformed one is the
    /// `SyntaxError` a browser throws for options it cannot read (WebAuthn L3 §5.1.3, §5.1.4),
    /// not `invalid argument`.
    static func ceremonyBody<Body: Decodable & Sendable>(
        _ type: Body.Type, _ request: Request, _ context: ControlRequestContext
    ) async throws -> Body {
        let bytes = try await JSONRequestDecoder.control.bytes(of: request, limit: context.maxUploadSize)
        return try BridgeBody(bytes: bytes).ceremony(type)
    }
}

/// Renders the bridge routes' failures itself, so that each answer, success or failure, carries
/// the CORS headers its page needs to read it; a preflight (Fetch Standard §4.8) is answered
/// for any origin, and the actual request is what the capability checks. A page of an origin
/// the capability does not allow gets no CORS headers, so it reads nothing.
struct BridgeMiddleware: RouterMiddleware {
    typealias Context = ControlRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response = await ControlMiddleware.answer(request, context, next)
        guard let origin = request.headers[.origin], response.status != .forbidden else {
            return response
        }
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.vary] = "Origin"
        if request.method == .options {
            response.headers[.accessControlAllowMethods] = "POST"
            response.headers[.accessControlAllowHeaders] = "authorization, content-type"
            response.headers[.accessControlMaxAge] = "600"
            // Private Network Access: a public page may reach this loopback server.
            if request.headers[Self.requestPrivateNetwork] == "true" {
                response.headers[Self.allowPrivateNetwork] = "true"
            }
        }
        return response
    }

    static let requestPrivateNetwork = HTTPField.Name("Access-Control-Request-Private-Network")!
    static let allowPrivateNetwork = HTTPField.Name("Access-Control-Allow-Private-Network")!
}
