import FoundationEssentials
import Logging
import NIOCore
import PostgresNIO

/// The tenant's store in a PostgreSQL database shared by any number of tenant instances
/// (postgres-nio's `PostgresClient`, a pool of connections).
///
/// Every guarantee that must hold across instances holds in the database: a single-use secret is
/// taken with `DELETE … RETURNING`, refresh rotation and code redemption hold the row
/// (`SELECT … FOR UPDATE`) for one transaction, a counter moves by compare-and-set, and a setting
/// is stored with `INSERT … ON CONFLICT DO NOTHING` and read back, so every instance signs with
/// the first key stored. The schema is ``TenantSchema``'s, migrated at start under an advisory
/// lock so instances starting together migrate once.
///
/// A login's statements are prepared once per connection (``LoginStatements``), and a login is
/// six round trips: the attempt check and the session's insert at the challenge; the attempt
/// check, the session's take, the credential with its owner and their failures, and the counter
/// with the refresh token (one statement, so one transaction) at the webauthn grant. A take
/// sweeps its table of expired records at most once a minute (``SweepSchedule``). Named prepared
/// statements need a direct connection or a pooler that keeps them (PgBouncer 1.21 and later
/// with `max_prepared_statements`).
///
/// The pool runs in a task the store owns, from ``init(url:maximumConnections:logger:)`` until
/// ``close()`` or the store's release. No call waits for the database longer than its timeout
/// (10 seconds unless the URL's `connect_timeout` says otherwise): when the database cannot be reached a call throws
/// ``TenantError/databaseUnavailable`` (503, `Retry-After: 1`), and the pool connects again by
/// itself once the database is back.
final class PostgresTenantStore: TenantStore {
    let client: PostgresClient
    let logger: Logger
    /// The longest any call waits for a connection and its statements.
    let timeout: Duration
    private let runner: Task<Void, Never>
    /// When a take last swept each table of expiring records.
    let sweeps = SweepSchedule()

    /// The longest the migrations at start may take, waiting for another instance's included.
    static let migrationTimeout: Duration = .seconds(60)
    /// The longest one attempt to connect may take.
    static let connectTimeout: Duration = .seconds(3)
    /// The advisory lock key migrations hold (`pg_advisory_xact_lock`): "PASSKEY" in ASCII.
    static let migrationLock: Int64 = 0x50_41_53_53_4B_45_59

    /// Connects to the database at `url` and brings its schema up to date.
    ///
    /// - Parameters:
    ///   - url: where the database is.
    ///   - maximumConnections: the most connections the pool opens at once; by default the URL's.
    ///   - timeout: the longest a call waits for a connection and its statements; by default the
    ///     URL's (10 seconds unless `?connect_timeout=` says otherwise).
    ///   - logger: where the pool logs its background work (connects, failures); never a password.
    /// - Throws: `temporarily_unavailable` when the database cannot be reached, `server_error`
    ///   when the migrations fail.
    init(
        url: PostgresURL, maximumConnections: Int? = nil, timeout: Duration? = nil, logger: Logger
    ) async throws(TenantError) {
        var configuration = Self.configuration(url)
        configuration.options.maximumConnections = maximumConnections ?? url.maximumConnections
        configuration.options.connectionIdleTimeout = .seconds(30)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        self.timeout = timeout ?? .seconds(url.timeout)
        self.runner = Task { await client.run() }
        do {
            // Fails within `timeout` when the server cannot be reached, before the migrations'
            // longer wait for another instance's.
            try await withConnection { connection in try await connection.run("SELECT 1") }
            try await migrate()
        } catch {
            await close()
            throw error
        }
    }

    /// The pool's configuration for `url`, with its connect timeout.
    static func configuration(_ url: PostgresURL) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        switch url.endpoint {
        case .tcp(let host, let port):
            configuration = .init(
                host: host, port: port, username: url.user, password: url.password?.text, database: url.database,
                tls: url.requiresTLS ? .require(.makeClientConfiguration()) : .disable)
        case .socket:
            configuration = .init(
                unixSocketPath: url.socketPath ?? "", username: url.user, password: url.password?.text,
                database: url.database)
        }
        configuration.options.connectTimeout = Self.connectTimeout
        return configuration
    }

    deinit {
        runner.cancel()
    }

    /// Closes the pool's connections and ends its task; calls after it fail with
    /// `temporarily_unavailable`.
    func close() async {
        runner.cancel()
        await runner.value
    }

    /// Applies the migrations of ``TenantSchema`` this database lacks, in one transaction holding
    /// an advisory lock, recording each in `schema_migrations`.
    private func migrate() async throws(TenantError) {
        try await transaction(timeout: Self.migrationTimeout) { connection in
            try await connection.run("SELECT pg_advisory_xact_lock(\(Self.migrationLock))")
            try await connection.run("CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY)")
            let applied = Set(
                try await connection.rows("SELECT version FROM schema_migrations").map {
                    try $0.value("version", as: String.self)
                })
            for migration in TenantSchema.migrations where !applied.contains(migration.version) {
                for statement in migration.postgres.split(separator: ";")
                where !statement.allSatisfy(\.isWhitespace) {
                    try await connection.run(PostgresQuery(unsafeSQL: String(statement)))
                }
                try await connection.run("INSERT INTO schema_migrations (version) VALUES (\(migration.version))")
            }
        }
    }

    /// The versions recorded in `schema_migrations`, in order: `v2` before `v10` (by length, then
    /// text), as ``TenantSchema/migrations`` lists them.
    func appliedMigrations() async throws(TenantError) -> [String] {
        try await withConnection { connection in
            try await connection.rows("SELECT version FROM schema_migrations ORDER BY length(version), version")
                .map { try $0.value("version", as: String.self) }
        }
    }

    // MARK: Running statements

    /// Leases a connection for `body`, within `timeout`; errors become `TenantError`s
    /// (``PostgresFailure/tenantError(for:unique:)``).
    func withConnection<T: Sendable>(
        timeout: Duration? = nil, unique: @escaping @Sendable (String) -> TenantError? = { _ in nil },
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(TenantError) -> T {
        let client = self.client
        let timeout = timeout ?? self.timeout
        do {
            return try await Deadline.run(within: timeout) { try await client.withConnection(body) }
        } catch {
            throw PostgresFailure.tenantError(for: error, unique: unique)
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws (a
    /// `TenantError` thrown inside is rethrown as is).
    func transaction<T: Sendable>(
        timeout: Duration? = nil, unique: @escaping @Sendable (String) -> TenantError? = { _ in nil },
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(TenantError) -> T {
        try await withConnection(timeout: timeout, unique: unique) { connection in
            try await connection.run("BEGIN")
            do {
                let value = try await body(connection)
                try await connection.run("COMMIT")
                return value
            } catch {
                try? await connection.run("ROLLBACK")
                throw error
            }
        }
    }

    // MARK: Settings

    /// The stored value of `key`, or `make()`'s, stored now, when there is none: inserted with
    /// `ON CONFLICT DO NOTHING` and read back, so instances storing one at once all get the first.
    func setting(_ key: String, orStore make: @escaping @Sendable () throws -> String) async throws(TenantError)
        -> String
    {
        try await withConnection { connection in
            let query: PostgresQuery = "SELECT value FROM settings WHERE key = \(key)"
            if let row = try await connection.rows(query).first {
                return try row.value("value", as: String.self)
            }
            let value = try make()
            try await connection.run(
                "INSERT INTO settings (key, value) VALUES (\(key), \(value)) ON CONFLICT (key) DO NOTHING")
            guard let row = try await connection.rows(query).first else {
                throw TenantError(.serverError, status: 500, "database: the setting \(key) vanished")
            }
            return try row.value("value", as: String.self)
        }
    }
}
