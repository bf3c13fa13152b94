public import PasskeyTenant

/// Two real tenants over loopback, as CONTRACT40 sets them up for tests: **B**, the upstream
/// issuer, served with TLS from the test CA as `https://localhost:PORT_B` (its domain
/// `localhost:PORT_B`, so its issuer and its discovery's endpoints are reachable), with a regular
/// web application for each of A's connections; and **A**, on plain http on a port it picks, with
/// an upstream OpenID Connect connection to each of B's applications.
public struct UpstreamTenants: Sendable {
    /// The tenant the application logs in at.
    public let a: PasskeyTenant
    /// The upstream issuer.
    public let b: PasskeyTenant
    /// `http://HOST:PORT_A`, with the host ``run(links:aHost:aClock:connection:_:)`` was given.
    public let aURL: String
    /// `https://localhost:PORT_B`.
    public let bURL: String
    /// The test CA's certificate, which B's chain ends at: what a client of B trusts.
    public let caBundlePath: String

    /// The client secret of each of B's applications for A.
    public static let clientSecret = "b-secret-for-tenant-a-0123456789"
    /// How many ports B tries before the start fails.
    static let attempts = 5

    /// One of A's upstream connections and B's application behind it.
    public struct Link: Sendable {
        /// The connection's name at A.
        public var connection: String
        /// The application's client ID (and name) at B.
        public var clientID: String
        /// The application's invoke URL at B (the embedded mode), or nil (B's login page).
        public var invokeURL: String?

        public init(connection: String, clientID: String, invokeURL: String? = nil) {
            self.connection = connection
            self.clientID = clientID
            self.invokeURL = invokeURL
        }
    }

    /// Serves B, then A, and runs `body` while both listen.
    ///
    /// B's domain names its port, so the port is picked (``FreePort``) before B listens; another
    /// test may bind it in between, so when B cannot start, both tenants are opened again on
    /// another port, ``attempts`` times at most. A listens on port 0 and reports its port.
    ///
    /// - Parameters:
    ///   - links: A's connections and B's applications for them. Each application's callbacks are
    ///     A's at `https://localhost`, `http://localhost` and `http://aHost`.
    ///   - aHost: the host of ``aURL``: where the browser reaches A, and so where B sends it back.
    ///   - aClock: A's clock.
    ///   - connection: changes each connection, given B's base URL.
    ///   - body: the test.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or when the tenants cannot be opened or B cannot start.
    public static func run<Value: Sendable>(
        links: [Link], aHost: String = "localhost", aClock: TenantClock = .system,
        connection: @Sendable (inout UpstreamConnection, _ bURL: String) -> Void = { _, _ in },
        _ body: @Sendable (UpstreamTenants) async throws -> Value
    ) async throws -> Value {
        let files = try TestCertificateAuthority().serverFiles(in: try TemporaryDirectory.current.path)
        let tls = TenantTLS(certificateChainPath: files.certificateChain, privateKeyPath: files.privateKey)
        let callbacks = Set(["https://localhost", "http://localhost", "http://\(aHost)"])
            .sorted().map { "callbacks=\($0)/login/callback" }.joined(separator: ",")
        for attempt in 1...attempts {
            let port = try FreePort.loopback()
            let bURL = "https://localhost:\(port)"
            var bConfiguration = TenantConfiguration(domain: "localhost:\(port)")
            bConfiguration.applications = try links.map { link in
                try TenantApplication(
                    option: "name=\(link.clientID),app_type=regular_web,client_id=\(link.clientID),"
                        + "client_secret=\(clientSecret),\(callbacks)"
                        + (link.invokeURL.map { ",invoke_url=\($0)" } ?? ""))
            }
            let b = try await TestTenant.open(configuration: bConfiguration)
            var aConfiguration = TenantConfiguration()
            aConfiguration.connections = links.map { link in
                var upstream = UpstreamConnection(
                    name: link.connection, issuer: bURL + "/", clientID: link.clientID,
                    clientSecret: Secret(clientSecret))
                connection(&upstream, bURL)
                return upstream
            }
            aConfiguration.upstreamCABundlePath = files.caCertificate
            let a = try await TestTenant.open(configuration: aConfiguration, clock: aClock)
            // B's own failure to start is told apart from the test's: the test's is the result.
            let result: Result<Value, any Error>
            do {
                result = try await b.serving(port: port, tls: tls) { _ in
                    do {
                        return .success(
                            try await a.serving { endpoint in
                                try await body(
                                    UpstreamTenants(
                                        a: a, b: b, aURL: "http://\(aHost):\(endpoint.port)", bURL: bURL,
                                        caBundlePath: files.caCertificate))
                            })
                    } catch {
                        return .failure(error)
                    }
                }
            } catch  where attempt < attempts {
                continue
            }
            return try result.get()
        }
        // The last attempt returns or rethrows: `catch where` lets its error through.
        fatalError("unreachable")
    }
}
