public import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOCore
import NIOSSL

/// Where a TLS server finds its certificate chain and private key (PEM files).
public struct TenantTLS: Sendable {
    /// The certificate chain, leaf first.
    public var certificateChainPath: String
    /// The private key of the leaf certificate.
    public var privateKeyPath: String

    /// Creates TLS settings.
    public init(certificateChainPath: String, privateKeyPath: String) {
        self.certificateChainPath = certificateChainPath
        self.privateKeyPath = privateKeyPath
    }

    /// The server configuration.
    ///
    /// - Throws: `NIOSSLError` when a file does not read or parse.
    func serverConfiguration() throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMFile(certificateChainPath).map {
            NIOSSLCertificateSource.certificate($0)
        }
        let key = try NIOSSLPrivateKey(file: privateKeyPath, format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain, privateKey: .privateKey(key))
        // Closing, the server sends close_notify and need not wait for the peer's (RFC 8446 §6.1): an idle
        // keep-alive client never answers, and NIOSSL's default 5 s wait held each stop that long.
        configuration.shutdownTimeout = .milliseconds(250)
        return configuration
    }
}

/// Where a running tenant listens.
public struct TenantEndpoint: Sendable, Hashable {
    /// `http://127.0.0.1:54321` or `https://…`, as a client reaches it.
    public var baseURL: String
    /// The bound port (the one picked when 0 was asked for).
    public var port: Int
}

extension PasskeyTenant {
    /// A Hummingbird application serving ``router()`` on `host:port`, plain HTTP or TLS.
    ///
    /// - Parameters:
    ///   - host: the address to bind; loopback by default.
    ///   - port: the port; 0 picks a free one.
    ///   - tls: certificate and key for HTTPS; plain HTTP when nil.
    ///   - onStart: called once the server listens, with where.
    /// - Throws: when the TLS files do not load.
    public func application(
        host: String = "127.0.0.1", port: Int = 0, tls: TenantTLS? = nil,
        onStart: @escaping @Sendable (TenantEndpoint) async -> Void = { _ in }
    ) throws -> Application<RouterResponder<TenantRequestContext>> {
        let server: HTTPServerBuilder =
            try tls.map { try .tls(.http1(), tlsConfiguration: $0.serverConfiguration()) } ?? .http1()
        let scheme = tls == nil ? "http" : "https"
        let hostInURL = host.contains(":") ? "[\(host)]" : host
        return Application(
            router: router(servesTLS: tls != nil), server: server,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                await onStart(TenantEndpoint(baseURL: "\(scheme)://\(hostInURL):\(bound)", port: bound))
            },
            logger: services.logger)
    }

    /// Serves the tenant until SIGINT or SIGTERM, then finishes the requests in flight and returns.
    ///
    /// - Parameters:
    ///   - host: the address to bind; loopback by default.
    ///   - port: the port; 0 picks a free one.
    ///   - tls: certificate and key for HTTPS; plain HTTP when nil.
    ///   - onStart: called once the server listens, with where.
    /// - Throws: when the address cannot be bound or the TLS files do not load.
    public func run(
        host: String = "127.0.0.1", port: Int = 0, tls: TenantTLS? = nil,
        onStart: @escaping @Sendable (TenantEndpoint) async -> Void = { _ in }
    ) async throws {
        try await application(host: host, port: port, tls: tls, onStart: onStart).runService()
    }

    /// Serves the tenant while `body` runs, then stops it: a test suite's tenant on a free
    /// loopback port, reached with the real HTTP client.
    ///
    /// ```swift
    /// let tenant = try await PasskeyTenant(configuration: TenantConfiguration(), database: ":memory:")
    /// try await tenant.serving { endpoint in
    ///     let connection = try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL)
    ///     // sign virtual users up and in
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - host: the address to bind; loopback by default.
    ///   - port: the port; 0 picks a free one.
    ///   - tls: certificate and key for HTTPS; plain HTTP when nil.
    ///   - body: what to do while the tenant listens, given where.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or the server's error when it stops before it listens.
    public func serving<Value: Sendable>(
        host: String = "127.0.0.1", port: Int = 0, tls: TenantTLS? = nil,
        _ body: @Sendable (TenantEndpoint) async throws -> Value
    ) async throws -> Value {
        let (started, continuation) = AsyncStream.makeStream(of: TenantEndpoint.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { continuation.finish() }
                try await self.run(host: host, port: port, tls: tls) { continuation.yield($0) }
            }
            var endpoints = started.makeAsyncIterator()
            guard let endpoint = await endpoints.next() else {
                try await group.next()
                throw TenantError(.serverError, status: 500, "the tenant stopped before it listened")
            }
            defer { group.cancelAll() }
            return try await body(endpoint)
        }
    }
}
