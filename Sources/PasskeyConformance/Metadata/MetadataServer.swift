public import FoundationEssentials
public import Hummingbird
public import Logging
import NIOCore
public import WebAuthn

/// The runner's metadata service over HTTP: the BLOB of ``ConformanceMetadata``, its broken
/// variants and the root they chain to, for a relying-party server under test to fetch as it would
/// fetch the FIDO Alliance's (FIDO MDS 3.0 §3.1.7: the BLOB is served as a JWT).
///
/// ```
/// GET /                the good BLOB                        application/jwt
/// GET /bad-signature   one bit of its signature flipped     application/jwt
/// GET /expired         signed by an expired signer          application/jwt
/// GET /wrong-chain     signed under a root nobody was given application/jwt
/// GET /root.pem        the root the good BLOB chains to     application/x-pem-file
/// ```
///
/// The BLOBs are made once, when the server is created, with `nextUpdate` ``lifetime`` ahead.
public struct MetadataServer: Sendable {
    /// How far ahead each BLOB's `nextUpdate` is: a few days, as the FIDO Alliance's service does.
    public static let lifetime: TimeInterval = 3 * 86_400

    /// The metadata served.
    public let metadata: ConformanceMetadata
    /// The BLOB of each variant, signed once.
    private let blobs: [ConformanceMetadata.Variant: [UInt8]]

    /// A server of `pki`'s metadata.
    ///
    /// - Parameters:
    ///   - pki: the PKI whose authenticators and root the BLOBs name.
    ///   - number: the BLOBs' serial number.
    ///   - now: the time the BLOBs are made at; `nextUpdate` is ``lifetime`` later.
    /// - Throws: `WebAuthnError` when the PKI cannot sign a BLOB.
    public init(pki: ConformancePKI, number: Int = 1, now: Date = Date()) throws(WebAuthnError) {
        metadata = ConformanceMetadata(
            pki: pki, number: number, nextUpdate: now + Self.lifetime)
        var blobs: [ConformanceMetadata.Variant: [UInt8]] = [:]
        for variant in ConformanceMetadata.Variant.allCases {
            blobs[variant] = try metadata.blob(variant)
        }
        self.blobs = blobs
    }

    /// The bytes served for `variant`.
    ///
    /// - Parameter variant: which BLOB.
    /// - Returns: the compact JWS.
    public func blob(_ variant: ConformanceMetadata.Variant) -> [UInt8] {
        blobs[variant] ?? []  // every variant is made in init
    }

    /// The path each variant is served at, without its leading `/`: the good BLOB at the root, the
    /// others at their raw value.
    public static func path(_ variant: ConformanceMetadata.Variant) -> String {
        variant == .good ? "" : variant.rawValue
    }

    /// The routes, for `Application(router:)` or HummingbirdTesting.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        for (variant, blob) in blobs {
            router.get(RouterPath("/" + Self.path(variant))) { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "application/jwt", .cacheControl: "no-store"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: blob)))
            }
        }
        let rootPEM = metadata.pki.rootPEM
        router.get("root.pem") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/x-pem-file"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: rootPEM)))
        }
        return router
    }

    /// A Hummingbird application serving ``router()`` on `host`:`port`.
    ///
    /// - Parameters:
    ///   - host: the address to listen on.
    ///   - port: the port; 0 picks a free one.
    ///   - logger: the server's logger; nothing is logged by default.
    ///   - onStart: called once it listens, with its URL (`http://HOST:PORT/`).
    /// - Returns: the application, not yet running.
    public func application(
        host: String = "127.0.0.1", port: Int = 0,
        logger: Logger = Logger(label: "passkey-conformance-mds", factory: { _ in SwiftLogNoOpLogHandler() }),
        onStart: @escaping @Sendable (String) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                await onStart("http://\(host.contains(":") ? "[\(host)]" : host):\(bound)/")
            },
            logger: logger)
    }

    /// Serves until SIGINT or SIGTERM, then finishes the requests in flight and returns.
    ///
    /// - Parameters:
    ///   - host: the address to listen on.
    ///   - port: the port; 0 picks a free one.
    ///   - onStart: called once it listens, with its URL.
    /// - Throws: when the address cannot be bound.
    public func run(host: String, port: Int, onStart: @escaping @Sendable (String) async -> Void) async throws {
        try await application(host: host, port: port, onStart: onStart).runService()
    }

    /// Serves on a free loopback port while `body` runs, then stops: a test's metadata service.
    ///
    /// - Parameter body: what to do while it listens, given its URL.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or the server's error when it stops before it listens.
    public func serving<Value: Sendable>(_ body: @Sendable (String) async throws -> Value) async throws -> Value {
        let (started, continuation) = AsyncStream.makeStream(of: String.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { continuation.finish() }
                try await self.run(host: "127.0.0.1", port: 0) { continuation.yield($0) }
            }
            var urls = started.makeAsyncIterator()
            guard let url = await urls.next() else {
                try await group.next()
                throw ConformanceError(.unreachable, "the metadata server stopped before it listened")
            }
            defer { group.cancelAll() }
            return try await body(url)
        }
    }
}
