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

    /// The routes, for `Application(router:)` or HummingbirdTesting.
    public func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: ControlMiddleware(token: token, metrics: service.metrics))
        router.post("session") { _, _ in
            let id = await service.newSession()
            return Self.value(NewSession(sessionId: id))
        }
        router.delete("session/:session") { _, context in
            try await service.deleteSession(context.parameters.require("session"))
            return Self.null
        }
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: service.metrics.render())))
        }
        addAuthenticatorRoutes(to: router.group("session/:session/webauthn/authenticator"))
        addUserRoutes(to: router.group("session/:session/users"))
        return router
    }

    // MARK: Bodies

    /// Reads the body, at most ``maxBodySize`` bytes; an empty body reads as `{}`.
    static func body(_ request: Request) async throws(ControlError) -> [UInt8] {
        do {
            let buffer = try await request.body.collect(upTo: maxBodySize)
            return buffer.readableBytes == 0 ? Array("{}".utf8) : Array(buffer.readableBytesView)
        } catch {
            throw .tooLarge(limit: maxBodySize)
        }
    }

    /// Reads the body as a JSON object (WebDriver's `parameters`).
    static func parameters(_ request: Request) async throws(ControlError) -> [String: JSONValue] {
        let bytes = try await body(request)
        guard let value = try? WebAuthnJSON.decode(JSONValue.self, from: bytes), let object = value.objectValue
        else {
            throw .invalidArgument("the body is not a JSON object")
        }
        return object
    }

    /// Reads the body as `Body`; a malformed one is `invalid argument`, or `code` when given.
    static func decode<Body: Decodable>(_ type: Body.Type, _ request: Request, code: String = "invalid argument")
        async throws(ControlError) -> Body
    {
        let bytes = try await body(request)
        do {
            return try WebAuthnJSON.decode(type, from: bytes)
        } catch {
            throw ControlError(code, status: 400, "malformed body: \(error.reason)")
        }
    }

    /// `{"value": VALUE}`, compact and with sorted keys.
    static func value(_ value: some Encodable) -> Response {
        json(Array(#"{"value":"#.utf8) + WebAuthnJSON.encode(value) + [UInt8(ascii: "}")])
    }

    /// `{"value": null}`: WebDriver's success without data.
    static let null = json(Array(#"{"value":null}"#.utf8))

    static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
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
