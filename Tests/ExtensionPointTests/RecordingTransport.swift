import Auth0Passkeys
import Synchronization

/// An ``HTTPTransport`` written outside the package that wraps another one and records the method,
/// path and status of each exchange, in the order the exchanges finished.
final class RecordingTransport: HTTPTransport {
    /// One exchange as recorded: `POST /oauth/token → 200`, or with no status when it failed.
    struct Exchange: Sendable, Hashable, CustomStringConvertible {
        let method: String
        let path: String
        let status: Int?

        var description: String { "\(method) \(path)" + (status.map { " → \($0)" } ?? " failed") }
    }

    private let base: any HTTPTransport
    private let recorded = Mutex<[Exchange]>([])

    /// - Parameter base: the transport that performs each exchange.
    init(_ base: any HTTPTransport) {
        self.base = base
    }

    /// The exchanges so far.
    var exchanges: [Exchange] { recorded.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        do {
            let response = try await base.send(request)
            record(request, status: response.status)
            return response
        } catch {
            record(request, status: nil)
            throw error
        }
    }

    private func record(_ request: HTTPRequest, status: Int?) {
        let exchange = Exchange(method: request.method.rawValue, path: request.path, status: status)
        recorded.withLock { $0.append(exchange) }
    }
}
