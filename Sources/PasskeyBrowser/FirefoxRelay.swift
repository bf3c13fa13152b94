import Auth0Passkeys
import FoundationEssentials
import Logging
import Synchronization
import WebAuthn

/// The driving process's side of the relay in Firefox (``BrowserRelay``): it reads the
/// `script.message` events of the preload script's channel (`relay-bidi.js`), asks the browser
/// for the sending realm's origin (`script.getRealms`) and, for a frame, the origin of its
/// top-level browsing context, calls the control server with them (`POST /bridge/relay`, the
/// relay capability), and answers by calling the realm's `deliver` function (`script.callFunction`).
///
/// What a realm sends is only ever a request: its origin is the browser's; a message of another
/// channel, of a realm that sent no `deliver` function first, or that is not a request
/// `{id, route, body}` is dropped (an unknown route is refused), and nothing reaches the server.
final class FirefoxRelay: Sendable {
    /// The channel's name.
    static let channel = "softpasskey-relay"
    /// The routes a relay request may name.
    static let routes: Set<String> = ["create", "get", "abort", "signal"]

    private let relay: BrowserRelay
    private let connection: BiDiConnection
    private let transport: any HTTPTransport
    private let logger: Logger
    /// Each realm's `deliver` function, by realm ID.
    private let deliveries = Mutex<[String: String]>([:])
    /// Each realm's origin and, in a frame, its top-level origin, once asked for.
    private let origins = Mutex<[String: (origin: String, topOrigin: String?)]>([:])

    init(_ relay: BrowserRelay, connection: BiDiConnection, transport: any HTTPTransport, logger: Logger) {
        self.relay = relay
        self.connection = connection
        self.transport = transport
        self.logger = logger
    }

    /// The preload script: the relay's installer, then `script`, in a function of the channel.
    static func preload(_ script: String) -> BiDiMessage.AddPreloadScript {
        BiDiMessage.AddPreloadScript(
            script: BrowserRelay.pageScript(PackageResources.relay_bidi_js) + script,
            channel: BiDiMessage.ChannelValue(channel))
    }

    /// A request: `{id, route, body}`.
    private struct Request: Decodable {
        let id: Int
        let route: String
        let body: JSONValue
    }

    /// What the event asks for: `nil` when it is a `deliver` function (kept) or to be dropped;
    /// else the work that answers it, to run concurrently with other requests. Called for the
    /// events in the order they came, so a realm's `deliver` is known before its requests.
    func receive(_ text: String) -> (@Sendable () async -> Void)? {
        guard let message = BiDiMessage.parameters(of: text, as: BiDiMessage.Message.self),
            message.channel == Self.channel
        else { return nil }
        let realm = message.source.realm
        if message.data.type == "function", let handle = message.data.handle {
            deliveries.withLock { $0[realm] = $0[realm] ?? handle }
            return nil
        }
        guard let handle = deliveries.withLock({ $0[realm] }), let text = message.data.value,
            let request = try? JSONDecoder().decode(Request.self, from: Data(text.utf8))
        else {
            logger.debug("firefox relay: dropped a message that is not a request of an installed realm")
            return nil
        }
        let context = message.source.context
        return { [self] in
            let answer = await self.answer(request, realm: realm, context: context)
            let reply = #"{"id":\#(request.id),"status":\#(answer.status),"value":\#(answer.value)}"#
            do {
                _ = try await connection.call(
                    BiDiMessage.CallFunction.method,
                    BiDiMessage.CallFunction(handle: handle, realm: realm, text: reply), BiDiMessage.Ignored.self)
            } catch {
                // The realm went away (navigated, closed) before its answer.
                logger.debug("firefox relay: the answer to request \(request.id) was not delivered: \(error)")
            }
        }
    }

    /// The server's answer (status and the JSON text of its `value`), or a refusal.
    private func answer(_ request: Request, realm: String, context: String?) async -> (status: Int, value: String) {
        guard Self.routes.contains(request.route) else {
            return Self.refusal(400, "invalid argument", "a relay request's route is create, get, abort or signal")
        }
        let origin: String
        let topOrigin: String?
        if let known = origins.withLock({ $0[realm] }) {
            (origin, topOrigin) = known
        } else {
            guard let context, let found = try? await self.origin(ofRealm: realm, in: context) else {
                return Self.refusal(403, "SecurityError", "a bridge request comes from a page with an origin")
            }
            do {
                topOrigin = try await self.topOrigin(of: context)
            } catch {
                return Self.refusal(403, "NotAllowedError", "this frame's top-level origin is unknown")
            }
            origin = found
            // A realm's origin never changes, nor the top-level document of its frame.
            origins.withLock { $0[realm] = (origin, topOrigin) }
        }
        var call: [String: JSONValue] = [
            "route": .string(request.route), "origin": .string(origin), "body": request.body,
        ]
        if let topOrigin { call["topOrigin"] = .string(topOrigin) }
        let response: HTTPResponse
        do {
            response = try await transport.send(
                HTTPRequest(
                    method: .post, url: relay.endpoint + "/relay",
                    headers: [
                        (name: "Authorization", value: "Bearer \(relay.capability)"),
                        (name: "Content-Type", value: "application/json"),
                    ],
                    body: WebAuthnJSON.encode(call)))
        } catch {
            return Self.refusal(503, "NotAllowedError", "The SoftPasskey relay cannot reach its server.")
        }
        guard let answer = try? JSONDecoder().decode([String: JSONValue].self, from: Data(response.body)),
            let value = answer["value"]
        else {
            return Self.refusal(502, "NotAllowedError", "The SoftPasskey server's answer is not JSON.")
        }
        return (response.status, String(decoding: WebAuthnJSON.encode(value), as: UTF8.self))
    }

    /// The origin of a window realm of `context` (not a sandbox's): an http or https origin,
    /// else `nil` (an opaque origin, `"null"`, has none).
    private func origin(ofRealm realm: String?, in context: String) async throws -> String? {
        let realms = try await connection.call(
            BiDiMessage.GetRealms.method, BiDiMessage.GetRealms(context: context), BiDiMessage.Realms.self)
        guard
            let info = realms.realms.first(where: { realm == nil ? $0.sandbox == nil : $0.realm == realm }),
            info.sandbox == nil, info.origin.hasPrefix("https://") || info.origin.hasPrefix("http://")
        else { return nil }
        return info.origin
    }

    /// For a frame, the origin of its top-level browsing context; `nil` for a top-level one.
    private func topOrigin(of context: String) async throws -> String? {
        var current = context
        while true {
            let tree = try await connection.call(
                BiDiMessage.GetTree.method, BiDiMessage.GetTree(root: current), BiDiMessage.Tree.self)
            guard let parent = tree.contexts.first?.parent else { break }
            current = parent
        }
        guard current != context else { return nil }
        guard let origin = try await origin(ofRealm: nil, in: current) else {
            throw BrowserError(.driverFailed, "the top-level context has no origin")
        }
        return origin
    }

    private static func refusal(_ status: Int, _ error: String, _ message: String) -> (status: Int, value: String) {
        let value: JSONValue = .object(["error": .string(error), "message": .string(message)])
        return (status, String(decoding: WebAuthnJSON.encode(value), as: UTF8.self))
    }
}
