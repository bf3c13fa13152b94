import HummingbirdWSClient
import Synchronization

/// One WebDriver BiDi connection whose commands any task may send at once: each command gets the
/// next ID, and the reader hands each answer to the command that waits for it (an answer that
/// comes before its command waits is kept for it). Events go to the reader's handler, in order.
final class BiDiConnection: Sendable {
    private struct State {
        var nextID = 1
        var waiting: [Int: CheckedContinuation<String, any Error>] = [:]
        var arrived: [Int: String] = [:]
        var closed = false
    }

    private let outbound: WebSocketOutboundWriter
    private let state = Mutex(State())

    init(outbound: WebSocketOutboundWriter) {
        self.outbound = outbound
    }

    /// Sends a command and returns its result.
    ///
    /// - Throws: ``BrowserError`` `driver-failed` when the agent refuses it, answers something
    ///   else, or closes the connection first.
    func call<Result: Decodable>(
        _ method: String, _ params: some Encodable & Sendable, _ type: Result.Type
    ) async throws -> Result {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await outbound.write(.text(BiDiMessage.command(id: id, method: method, params: params)))
        let text = try await withCheckedThrowingContinuation { continuation in
            let outcome = state.withLock { state -> Swift.Result<String, BrowserError>? in
                if let text = state.arrived.removeValue(forKey: id) { return .success(text) }
                if state.closed { return .failure(Self.closed(method)) }
                state.waiting[id] = continuation
                return nil
            }
            if let outcome { continuation.resume(with: outcome.mapError { $0 as any Error }) }
        }
        guard let result = try BiDiMessage.answer(text, to: id, as: type) else {
            throw BrowserError(.driverFailed, "the remote agent's answer to \(method) is not one")
        }
        return result
    }

    /// Reads the connection until the agent closes it, handing each event (its method and
    /// message) to `event`; then every command still waiting fails.
    func read(
        _ messages: WebSocketInboundMessageStream, event: (String, String) async -> Void
    ) async throws {
        defer {
            let waiting = state.withLock { state in
                state.closed = true
                defer { state.waiting = [:] }
                return state.waiting
            }
            for continuation in waiting.values {
                continuation.resume(throwing: Self.closed("a command"))
            }
        }
        for try await message in messages {
            guard case .text(let text) = message else { continue }
            switch BiDiMessage.kind(of: text) {
            case .answer(let id):
                let continuation = state.withLock { state in
                    let continuation = state.waiting.removeValue(forKey: id)
                    if continuation == nil { state.arrived[id] = text }
                    return continuation
                }
                continuation?.resume(returning: text)
            case .event(let method):
                await event(method, text)
            case .other:
                continue
            }
        }
    }

    private static func closed(_ method: String) -> BrowserError {
        BrowserError(.driverFailed, "the remote agent closed the connection before answering \(method)")
    }
}
