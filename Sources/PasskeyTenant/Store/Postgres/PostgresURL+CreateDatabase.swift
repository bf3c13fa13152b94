import PostgresNIO

extension PostgresURL {
    /// Creates the database `name` on this URL's server, connected to this URL's database as its
    /// user (the tests' fresh database per tenant), as a copy of `template` (a database no one is
    /// connected to) or an empty one, and closes the connection.
    ///
    /// - Returns: the URL of the new database (with the password: never to print).
    /// - Throws: `temporarily_unavailable` when the server cannot be reached, `server_error` when
    ///   it refuses (the name is taken, the user may not create databases).
    package func createDatabase(named name: String, template: String? = nil) async throws(TenantError) -> String {
        let copy = template.map { " TEMPLATE " + Self.quoted($0) + " STRATEGY FILE_COPY" } ?? ""
        try await withClient { client in
            _ = try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(Self.quoted(name))\(copy)"))
        }
        return text(database: name)
    }

    /// The names of the databases on this URL's server that start with `prefix` (the tests' own).
    ///
    /// - Throws: as ``createDatabase(named:template:)``.
    package func databaseNames(startingWith prefix: String) async throws(TenantError) -> [String] {
        try await withClient { client in
            var names: [String] = []
            let rows = try await client.query(
                "SELECT datname::text FROM pg_database WHERE starts_with(datname, \(prefix))")
            for try await name in rows.decode(String.self) {
                names.append(name)
            }
            return names
        }
    }

    /// Drops the database `name` on this URL's server if it exists, closing the connections left
    /// to it first (`WITH (FORCE)`, PostgreSQL 13+: as `pg_terminate_backend`, so the user must be
    /// a superuser or the owner of those sessions): a test's tenant is rarely closed.
    ///
    /// - Throws: as ``createDatabase(named:template:)``.
    package func dropDatabase(named name: String) async throws(TenantError) {
        try await withClient { client in
            let drop = "DROP DATABASE IF EXISTS \(Self.quoted(name)) WITH (FORCE)"
            _ = try await client.query(PostgresQuery(unsafeSQL: drop))
        }
    }

    /// Brings the schema of this URL's database up to date (``TenantSchema``) and disconnects:
    /// a template for ``createDatabase(named:template:)``.
    package func migrateDatabase() async throws(TenantError) {
        try await PostgresTenantStore(url: self, maximumConnections: 1, logger: PostgresTenantStore.quiet).close()
    }

    /// `body`'s value on a client of this URL's database, stopped when it returns.
    ///
    /// The server must answer within the URL's timeout (``timeout``), and `body` may then take up
    /// to ``PostgresTenantStore/migrationTimeout`` (a database's creation or drop waits for a
    /// checkpoint, and a drop for the sessions it closes): without a deadline, the pool tries an
    /// unreachable server or one refusing connections again and again, and the call (a test's
    /// database, the growth bench's setup and teardown) waits for ever.
    ///
    /// - Throws: `temporarily_unavailable` when the server is not reached or `body` does not end
    ///   in time; as ``PostgresFailure/tenantError(for:unique:)`` says for `body`'s errors.
    private func withClient<Value: Sendable>(_ body: @escaping @Sendable (PostgresClient) async throws -> Value)
        async throws(TenantError) -> Value
    {
        let client = PostgresClient(
            configuration: PostgresTenantStore.configuration(self), backgroundLogger: PostgresTenantStore.quiet)
        let runner = Task { await client.run() }
        defer { runner.cancel() }
        do {
            try await Deadline.run(within: .seconds(timeout)) {
                for try await _ in try await client.query("SELECT 1") {}
            }
            return try await Deadline.run(within: PostgresTenantStore.migrationTimeout) { try await body(client) }
        } catch {
            throw PostgresFailure.tenantError(for: error)
        }
    }

    /// An SQL identifier, quoted.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacing("\"", with: "\"\"") + "\""
    }
}
