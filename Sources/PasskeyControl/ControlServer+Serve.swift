public import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
public import Logging

/// Where a control server listens.
public enum ControlAddress: Sendable, Hashable {
    /// A TCP port on `host`; port 0 picks a free one.
    case tcp(host: String, port: Int)
    /// A Unix domain socket at `path` (the file must not exist).
    case unixSocket(path: String)
}

/// Where a running control server is reached.
public struct ControlEndpoint: Sendable, Hashable, Encodable {
    /// `http://127.0.0.1:PORT`, or `http://localhost` for a socket (with `--unix-socket` to curl).
    public let url: String
    /// The socket's path, when it listens on one.
    public let socket: String?
}

extension ControlServer {
    /// A Hummingbird application serving ``router()`` at `address`, and the page bridge's socket
    /// (`GET /bridge/socket`, a WebSocket).
    ///
    /// - Parameters:
    ///   - address: where to listen.
    ///   - logger: the server's logger; nothing is logged by default.
    ///   - onStart: called once it listens, with where.
    public func application(
        at address: ControlAddress,
        logger: Logger = Logger(label: "passkey-serve", factory: { _ in SwiftLogNoOpLogHandler() }),
        onStart: @escaping @Sendable (ControlEndpoint) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let bind: BindAddress
        switch address {
        case .tcp(let host, let port): bind = .hostname(host, port: port)
        case .unixSocket(let path): bind = .unixDomainSocket(path: path)
        }
        return Application(
            router: router(),
            server: .http1WebSocketUpgrade(
                configuration: .init(ws: .init(maxFrameSize: Self.maxSocketMessage)),
                shouldUpgrade: { head, _, _ in bridgeSocketUpgrade(head) }),
            configuration: ApplicationConfiguration(address: bind, serverName: nil),
            onServerRunning: { channel in
                switch address {
                case .tcp(let host, let port):
                    let bound = channel.localAddress?.port ?? port
                    let hostInURL = host.contains(":") ? "[\(host)]" : host
                    await onStart(ControlEndpoint(url: "http://\(hostInURL):\(bound)", socket: nil))
                case .unixSocket(let path):
                    await onStart(ControlEndpoint(url: "http://localhost", socket: path))
                }
            },
            logger: logger)
    }

    /// Serves until SIGINT or SIGTERM, then finishes the requests in flight and returns.
    ///
    /// - Parameters:
    ///   - address: where to listen.
    ///   - onStart: called once it listens, with where.
    /// - Throws: when the address cannot be bound.
    public func run(at address: ControlAddress, onStart: @escaping @Sendable (ControlEndpoint) async -> Void)
        async throws
    {
        try await application(at: address, onStart: onStart).runService()
    }

    /// Serves on a free loopback port while `body` runs, then stops: a test's control server.
    ///
    /// - Parameter body: what to do while it listens, given where.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or the server's error when it stops before it listens.
    public func serving<Value: Sendable>(_ body: @Sendable (ControlEndpoint) async throws -> Value) async throws
        -> Value
    {
        let (started, continuation) = AsyncStream.makeStream(of: ControlEndpoint.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { continuation.finish() }
                try await self.run(at: .tcp(host: "127.0.0.1", port: 0)) { continuation.yield($0) }
            }
            var endpoints = started.makeAsyncIterator()
            guard let endpoint = await endpoints.next() else {
                try await group.next()
                throw ControlError("unknown error", status: 500, "the control server stopped before it listened")
            }
            defer { group.cancelAll() }
            return try await body(endpoint)
        }
    }
}
