import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import WebAuthn

extension ControlServer {
    /// A session's ``ControlEvent``s as Server-Sent Events (HTML Living Standard §9.2): each is
    /// `id: N`, `event: credentialAdded|…` and `data: {…}`; a comment every 15 seconds keeps an
    /// idle stream open through proxies. It starts after `?after=N` or the `Last-Event-ID` a
    /// reconnecting reader sends (both 0 by default: everything still kept), and ends with the
    /// session or when the server shuts down gracefully (so a stream does not hold `passkey
    /// serve` open).
    func eventStream(session: String, _ request: Request) async throws -> Response {
        let log = try await service.eventLog(session: session)
        let resumeFrom = request.uri.queryParameters["after"].map(String.init) ?? request.headers[Self.lastEventID]
        guard let after = Int(resumeFrom ?? "0"), after >= 0 else {
            throw ControlError.invalidArgument("after is a non-negative event number")
        }
        let (lines, writer) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(1024))
        let forward = Task {
            for await event in log.stream(after: after) {
                writer.yield(Self.serverSentEvent(event))
            }
            writer.finish()
        }
        let keepAlive = Task {
            while (try? await Task.sleep(for: .seconds(15))) != nil {
                writer.yield(Array(": keepalive\n\n".utf8))
            }
        }
        writer.onTermination = { _ in
            forward.cancel()
            keepAlive.cancel()
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: ResponseBody { body in
                defer { writer.finish() }
                try await body.write(ByteBuffer(string: ": events of session \(session)\n\n"))
                try await withGracefulShutdownHandler {
                    for await line in lines {
                        try await body.write(ByteBuffer(bytes: line))
                    }
                } onGracefulShutdown: {
                    writer.finish()
                }
                try await body.finish(nil)
            })
    }

    /// One event in the stream's format.
    static func serverSentEvent(_ event: ControlEvent) -> [UInt8] {
        Array("id: \(event.seq)\nevent: \(event.type.rawValue)\ndata: ".utf8) + WebAuthnJSON.encode(event)
            + Array("\n\n".utf8)
    }

    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
