import Foundation
public import HummingbirdTesting
public import Logging
public import PasskeyTenant

/// The local tenant started for a test: opened on the fixture signing key, and served over real
/// HTTP on a free loopback port (STYLE §7: `app.test(.live)` on port 0).
public enum TestTenant {
    /// Opens a tenant that signs with ``FixtureSigningKey`` unless told otherwise.
    ///
    /// - Parameters:
    ///   - configuration: the tenant's configuration; the defaults by default.
    ///   - database: a SQLite file path, `:memory:`, or a PostgreSQL URL; by default
    ///     ``defaultDatabase()``: a fresh PostgreSQL database when `PASSKEY_TEST_POSTGRES` names a
    ///     server, else `:memory:`.
    ///   - clock: where the tenant reads time; the system clock by default.
    ///   - logger: where the tenant logs; nowhere by default.
    ///   - signingKey: the PEM a new database signs with, replacing the configuration's;
    ///     ``FixtureSigningKey`` by default, nil to keep the configuration's (a generated key
    ///     when it names none).
    /// - Returns: the open tenant.
    /// - Throws: `TenantError` when the database cannot be opened.
    public static func open(
        configuration: TenantConfiguration = TenantConfiguration(), database: String? = nil,
        clock: TenantClock = .system,
        logger: Logger = Logger(label: "passkey-tenant", factory: { _ in SwiftLogNoOpLogHandler() }),
        signingKey: Secret? = Secret(FixtureSigningKey.pem)
    ) async throws -> PasskeyTenant {
        var configuration = configuration
        if let signingKey {
            configuration.signingKeyPEM = signingKey
        }
        let database = if let database { database } else { try await defaultDatabase() }
        return try await PasskeyTenant(configuration: configuration, database: database, clock: clock, logger: logger)
    }

    /// The PostgreSQL server the tests run against: the admin URL in `PASSKEY_TEST_POSTGRES`
    /// (`Tests/Support/pg-cluster.sh start DIR` prints it), or nil for SQLite.
    public static let postgresServer: String? = {
        guard let text = ProcessInfo.processInfo.environment["PASSKEY_TEST_POSTGRES"], !text.isEmpty else {
            return nil
        }
        return text
    }()

    /// A database of its own for one test's tenant: a new PostgreSQL database on
    /// ``postgresServer`` (``TestDatabase``, which also drops it), copied from a template this
    /// process migrated once, else `:memory:`.
    public static func defaultDatabase() async throws -> String {
        guard postgresServer != nil else { return ":memory:" }
        let template = try await migratedTemplate.value
        let url = try await TestDatabase.create(template: template)
        // A small pool per tenant, so the hundreds a run opens at once fit the server's connections,
        // and a long bound on each wait: a whole suite at once on a shared machine waits long.
        return url + (url.contains("?") ? "&" : "?") + "max_connections=3&connect_timeout=120"
    }

    /// The name of a database with the tenant's schema and nothing else, made once per process.
    private static let migratedTemplate = Task<String, any Error> {
        guard postgresServer != nil else { return "" }
        let url = try PostgresURL(try await TestDatabase.create())
        try await url.migrateDatabase()
        return url.database
    }

    /// Serves `tenant` on a free port of 127.0.0.1 while `body` runs.
    ///
    /// - Parameters:
    ///   - tenant: the tenant to serve.
    ///   - body: what to do with the running server: `http` sends requests to it, `baseURL` is
    ///     `http://127.0.0.1:PORT` for real clients.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or when the server cannot start.
    public static func serve<Value: Sendable>(
        _ tenant: PasskeyTenant,
        _ body: @Sendable (_ http: any TestClientProtocol, _ baseURL: String) async throws -> Value
    ) async throws -> Value {
        try await tenant.application(port: 0).test(.live) { http in
            try await body(http, "http://127.0.0.1:\(http.port ?? 0)")
        }
    }
}
