import HTTPTypes
import HummingbirdWebSocket
import JSONBodies
import NIOCore
import WebAuthn

/// The page bridge's persistent channel, `GET /bridge/socket` (a WebSocket, RFC 6455): one
/// connection per page realm or relay, so a ceremony is a message, not a new HTTP request.
///
/// ```
/// → {"capability": CAP}                                   ← {"ready": true}  (or an error, then close)
/// → {"id": N, "route": R, "body": {…}, "origin"?: O, "topOrigin"?: T}
/// ← {"id": N, "status": S, "value": V}                     (any order; V as POST /bridge/R's "value")
/// ```
///
/// A page's capability runs commands for the origin its browser set on the handshake (RFC 6455
/// §4.1 item 8, the `Origin` header a page cannot choose), and a message's `origin` is refused; a
/// relay's states `origin` (and `topOrigin`) in each message. Commands run concurrently (a
/// conditional get waits for a pick without holding the others up); a malformed message is
/// answered with its error and the connection stays open. When the connection closes, the
/// commands still running are cancelled: a conditional get its page no longer waits for ends.
extension ControlServer {
    /// The largest message read: the largest HTTP body plus its envelope.
    static let maxSocketMessage = maxBodySize + 4096

    /// Whether to upgrade a request to the bridge socket, and how to serve it.
    func bridgeSocketUpgrade(_ head: HTTPRequest) -> ShouldUpgradeResult<
        WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>
    > {
        guard let path = head.path, path.split(separator: "?", maxSplits: 1).first == "/bridge/socket" else {
            return .dontUpgrade
        }
        let origin = head.headerFields[.origin]
        return .upgrade([:]) { inbound, outbound, _ in
            try await serveBridgeSocket(inbound.messages(maxSize: Self.maxSocketMessage), outbound, origin: origin)
        }
    }

    /// Reads the hello, then answers each message, until the client closes.
    private func serveBridgeSocket(
        _ inbound: WebSocketInboundMessageStream, _ outbound: WebSocketOutboundWriter, origin: String?
    ) async throws {
        var messages = inbound.makeAsyncIterator()
        guard case .text(let hello)? = try await messages.next() else { return }
        let capability: String
        let relay: Bool
        do throws(ControlError) {
            guard
                let text = try BridgeBody(bytes: Array(hello.utf8)).decode(
                    [String: JSONValue].self)["capability"]?.stringValue
            else {
                throw ControlError.invalidArgument("the first message is {\"capability\": CAP}")
            }
            capability = text
            // A relay's grant is found under any origin it may state; a page's under its own.
            relay = try await service.bridgeGrantIsRelay(capability: capability)
            if !relay {
                _ = try await pageCaller(origin: origin, capability: capability)
            }
        } catch {
            // Returning closes the connection.
            try await outbound.write(.text(String(decoding: Self.socketError(error), as: UTF8.self)))
            return
        }
        try await outbound.write(.text(#"{"ready":true}"#))
        let (answers, answer) = AsyncStream.makeStream(of: [UInt8].self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            // One writer, so that answers finishing together never interleave.
            group.addTask {
                for await bytes in answers {
                    try await outbound.write(.text(String(decoding: bytes, as: UTF8.self)))
                }
            }
            while let message = try await messages.next() {
                guard case .text(let text) = message else { continue }
                group.addTask {
                    answer.yield(
                        await self.socketAnswer(Array(text.utf8), capability: capability, relay: relay, origin: origin))
                }
            }
            // The client went away (its page closed or navigated): what it still waits for is
            // cancelled, which aborts a pending conditional get (WebAuthn L3 §5.6) at once.
            answer.finish()
            group.cancelAll()
        }
    }

    /// One message's answer, `{"id", "status", "value"}`.
    private func socketAnswer(_ bytes: [UInt8], capability: String, relay: Bool, origin: String?) async -> [UInt8] {
        var id = "null"
        do throws(ControlError) {
            let head = try BridgeBody(bytes: bytes).decode(BridgeRelayHead.self)
            id = head.id.map(String.init) ?? "null"
            let caller: BridgeCaller
            if relay {
                caller = try await relayCaller(capability: capability, origin: head.origin, topOrigin: head.topOrigin)
            } else {
                guard head.origin == nil else {
                    throw ControlError("SecurityError", status: 403, "a page's message cannot state its origin")
                }
                caller = try await pageCaller(origin: origin, capability: capability)
            }
            let value = try await bridgeCommand(head.route, head.command, caller: caller)
            return Array(#"{"id":\#(id),"status":200,"value":"#.utf8) + value.bytes + [UInt8(ascii: "}")]
        } catch {
            if id == "null", let number = try? BridgeBody(bytes: bytes).decode(MessageID.self).id {
                id = String(number)
            }
            return Array(#"{"id":\#(id),"status":\#(error.status),"value":"#.utf8) + Self.socketError(error)
                + [UInt8(ascii: "}")]
        }
    }

    /// A message's `id` alone, to answer a message whose other members do not read.
    private struct MessageID: Decodable {
        let id: Int?
    }

    /// A refusal in WebDriver's error shape, as the HTTP routes answer it.
    private static func socketError(_ error: ControlError) -> [UInt8] {
        WebAuthnJSON.encode(ControlMiddleware.ErrorValue(error: error.code, message: error.message, stacktrace: ""))
    }
}
