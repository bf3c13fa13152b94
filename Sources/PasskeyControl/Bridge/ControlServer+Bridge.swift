import HTTPTypes
import Hummingbird
import PasskeyAuthenticator
import ServiceLifecycle
import WebAuthn

extension ControlServer {
    /// The page bridge's routes (`/bridge/create|get|abort|signal`): called by the bridge script
    /// from a page, with its capability instead of the server's token, and answered with CORS
    /// headers for the page's origin (Fetch Standard §3.2) so the page can read them.
    func addBridgeRoutes(to group: RouterGroup<ControlRequestContext>) {
        group.add(middleware: BridgeMiddleware())
        for command in ["create", "get", "abort", "signal"] {
            group.on(RouterPath(command), method: .options) { _, _ in Response(status: .noContent) }
        }
        group.post("create") { request, context in
            let (grant, origin) = try await bridgeCaller(request)
            let body = try await Self.ceremonyBody(
                BridgeRequest<PublicKeyCredentialCreationOptionsJSON>.self, request, context)
            _ = try body.id()
            return ControlValue(
                try await service.create(
                    session: grant.session, authenticator: grant.authenticatorID, options: body.options, origin: origin,
                    topOrigin: body.topLevelOrigin(besides: origin), mediation: body.credentialMediation()))
        }
        group.post("get") { request, context in
            let (grant, origin) = try await bridgeCaller(request)
            let body = try await Self.ceremonyBody(
                BridgeRequest<PublicKeyCredentialRequestOptionsJSON>.self, request, context)
            let requestID = try body.id()
            let topOrigin = try body.topLevelOrigin(besides: origin)
            guard try body.credentialMediation() == .conditional else {
                return ControlValue(
                    JSONText(
                        try await service.get(
                            session: grant.session, authenticator: grant.authenticatorID,
                            options: WebAuthnJSON.encode(body.options), origin: origin, topOrigin: topOrigin
                        ).json))
            }
            // A server that is stopping aborts what waits for a pick, so that it can stop.
            let assertion = try await withGracefulShutdownHandler {
                try await service.conditionalGet(
                    session: grant.session, authenticator: grant.authenticatorID, options: body.options,
                    origin: origin, topOrigin: topOrigin, requestID: requestID)
            } onGracefulShutdown: {
                Task {
                    await service.abortConditional(
                        session: grant.session, authenticator: grant.authenticatorID, requestID: requestID)
                }
            }
            return ControlValue(JSONText(assertion.json))
        }
        group.post("abort") { request, context in
            let (grant, _) = try await bridgeCaller(request)
            let body = try await request.decode(as: [String: JSONValue].self, context: context)
            guard let requestID = body["requestId"]?.stringValue else {
                throw ControlError.invalidArgument("requestId is required")
            }
            await service.abortConditional(
                session: grant.session, authenticator: grant.authenticatorID, requestID: requestID)
            return ControlValue.null
        }
        group.post("signal") { request, context in
            let (grant, origin) = try await bridgeCaller(request)
            let body = try await request.decode(as: BridgeSignalRequest.self, context: context)
            try await service.signal(
                body.signal(), session: grant.session, authenticator: grant.authenticatorID, origin: origin)
            return ControlValue.null
        }
    }

    /// The capability's grant and the page's origin: the `Origin` the browser set (RFC 6454 §7),
    /// which a page cannot choose, is the client's origin.
    func bridgeCaller(_ request: Request) async throws(ControlError) -> (BridgeGrant, WebOrigin) {
        guard let header = request.headers[.origin], header != "null", let origin = try? WebOrigin(header) else {
            throw ControlError("SecurityError", status: 403, "a bridge request comes from a page with an origin")
        }
        guard let capability = ControlToken.bearer(request.headers[.authorization]) else {
            throw .unknownBridge
        }
        return (try await service.bridgeGrant(capability: capability, origin: origin), origin)
    }

    /// A ceremony's body, from the control API or a page bridge; a malformed one is the
    /// `SyntaxError` a browser throws for options it cannot read (WebAuthn L3 §5.1.3, §5.1.4),
    /// not `invalid argument`.
    static func ceremonyBody<Body: Decodable & Sendable>(
        _ type: Body.Type, _ request: Request, _ context: ControlRequestContext
    ) async throws -> Body {
        do {
            return try await request.decode(as: type, context: context)
        } catch let error as ControlError where error.status == 400 {
            throw ControlError("SyntaxError", status: 400, error.message)
        }
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
