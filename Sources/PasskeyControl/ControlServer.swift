import HTTPTypes
public import Hummingbird
import NIOCore
import PasskeyAuthenticator
import WebAuthn

/// The control API over HTTP: the W3C WebDriver virtual-authenticator commands (WebAuthn L3 §11)
/// under WebDriver's session paths, ceremonies, virtual users and Prometheus metrics, each
/// answering WebDriver's `{"value": …}` and its error shape (``ControlError``).
///
/// ```
/// POST   /session                                              New Session → {sessionId, capabilities}
/// DELETE /session/{s}
/// POST   /session/{s}/webauthn/authenticator                   Add Virtual Authenticator → id
/// DELETE /session/{s}/webauthn/authenticator/{a}
/// POST   /session/{s}/webauthn/authenticator/{a}/credential    Add Credential
/// GET    /session/{s}/webauthn/authenticator/{a}/credentials   Get Credentials (no private keys)
/// DELETE /session/{s}/webauthn/authenticator/{a}/credentials   Remove All Credentials
/// DELETE /session/{s}/webauthn/authenticator/{a}/credentials/{c}
/// POST   /session/{s}/webauthn/authenticator/{a}/credentials/{c}/props
/// POST   /session/{s}/webauthn/authenticator/{a}/credentials/{c}/export   the key, as PKCS#8
/// POST   /session/{s}/webauthn/authenticator/{a}/uv            Set User Verified
/// POST   /session/{s}/webauthn/authenticator/{a}/create|get    {origin, options, topOrigin?, user?, credentialId?}
/// GET    /session/{s}/webauthn/authenticator/{a}/bridge.js[?origin=O…]   the page bridge's script
/// POST   /session/{s}/webauthn/authenticator/{a}/conditional   {credentialId?, user?, timeout?}: pick for autofill
/// GET    /session/{s}/webauthn/events[?after=N]                Server-Sent Events: credentialAdded, …
/// POST   /session/{s}/webauthn/authenticator/{a}/relay         {origins?}: a relay's capability
/// POST   /bridge/create|get|abort|signal                       the page bridge's (its capability, CORS)
/// POST   /bridge/relay                                         {route, origin, topOrigin?, body}: a relay's
/// GET    /bridge/socket                                        the bridge socket (WebSocket; application(at:))
/// POST   /session/{s}/users                                    {tenant, authenticatorId, origin?} → id
/// DELETE /session/{s}/users/{u}
/// POST   /session/{s}/users/{u}/signup|login|enroll|token|api|logout   (enroll: {authenticatorId?})
/// GET    /metrics                                              Prometheus text
/// ```
///
/// Every request needs `Authorization: Bearer TOKEN`; bodies are JSON of at most 64 KiB. Bad
/// input is a 4xx and changes nothing.
public struct ControlServer: Sendable {
    /// What the routes call.
    public let service: ControlService
    /// The bearer token every request must carry.
    let token: ControlToken
    /// The largest body read (64 KiB).
    public static let maxBodySize = 64 * 1024

    /// Creates a server for `service`, guarded by `token`.
    ///
    /// - Parameters:
    ///   - service: the service.
    ///   - token: the bearer token clients must send.
    public init(service: ControlService, token: ControlToken) {
        self.service = service
        self.token = token
    }

    /// The routes, for `Application(router:)` or HummingbirdTesting; bodies and answers go
    /// through the context's codecs (``ControlRequestContext``).
    public func router() -> Router<ControlRequestContext> {
        let router = Router(context: ControlRequestContext.self)
        router.add(middleware: ControlMiddleware(token: token, metrics: service.metrics))
        router.post("session") { _, _ in
            let id = await service.newSession()
            return ControlValue(NewSession(sessionId: id))
        }
        router.delete("session/:session") { _, context in
            try await service.deleteSession(context.parameters.require("session"))
            return ControlValue.null
        }
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: service.metrics.render())))
        }
        router.get("session/:session/webauthn/events") { request, context in
            try await eventStream(session: context.parameters.require("session"), request)
        }
        addAuthenticatorRoutes(to: router.group("session/:session/webauthn/authenticator"))
        addUserRoutes(to: router.group("session/:session/users"))
        addBridgeRoutes(to: router.group("bridge"))
        return router
    }

    /// New Session's answer: the ID and the WebAuthn capabilities (WebAuthn L3 §11.1).
    struct NewSession: Encodable {
        let sessionId: String
        let capabilities = [
            "webauthn:virtualAuthenticators": true, "webauthn:extension:prf": true,
            "webauthn:extension:largeBlob": true, "webauthn:extension:credBlob": true,
        ]
    }
}

extension Parameters {
    /// A credential ID of the path, base64url.
    func credentialID(_ name: String) throws(ControlError) -> [UInt8] {
        guard let text = get(name) else { throw .invalidArgument("no \(name) in the path") }
        do {
            return try Base64URL.decode(text)
        } catch {
            throw .invalidArgument("\(name) is not base64url: \(error.reason)")
        }
    }
}
