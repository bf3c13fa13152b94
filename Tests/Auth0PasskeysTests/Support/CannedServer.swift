import Auth0Passkeys
import Hummingbird
import HummingbirdTesting
import Synchronization

/// A real HTTP server on a loopback port, with routes that answer what the tenant cannot produce
/// on demand (429 with Retry-After, 5xx, slow or truncated answers, redirects). It counts the
/// requests each path received.
struct CannedServer {
    let router = Router()
    let hits = Hits()

    final class Hits: Sendable {
        private let counts = Mutex<[String: Int]>([:])

        /// Counts a request to `path`; returns how many came before it.
        func record(_ path: String) -> Int {
            counts.withLock { counts in
                defer { counts[path, default: 0] += 1 }
                return counts[path, default: 0]
            }
        }

        subscript(_ path: String) -> Int { counts.withLock { $0[path, default: 0] } }
    }

    /// Adds a route answering with the response `answer` gives for the request's 0-based index.
    func route(
        _ method: HTTPRequest.Method, _ path: String,
        _ answer: @escaping @Sendable (Int, Request) async throws -> Response
    ) {
        let hits = hits
        router.on(RouterPath(path), method: method) { request, _ in
            try await answer(hits.record(path), request)
        }
    }

    /// Runs `body` with the base URL of the running server.
    func run<Value: Sendable>(_ body: @Sendable (String) async throws -> Value) async throws -> Value {
        try await Application(router: router).test(.live) { client in
            try await body("http://127.0.0.1:\(client.port ?? 0)")
        }
    }

    static func json(_ status: HTTPResponse.Status, _ text: String, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
