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
        let client = PostgresClient(
            configuration: PostgresTenantStore.configuration(self), backgroundLogger: PostgresTenantStore.quiet)
        let runner = Task { await client.run() }
        defer { runner.cancel() }
        do {
            let copy = template.map { " TEMPLATE " + Self.quoted($0) + " STRATEGY FILE_COPY" } ?? ""
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(Self.quoted(name))\(copy)"))
        } catch {
            throw PostgresFailure.tenantError(for: error)
        }
        return text(database: name)
    }

    /// Brings the schema of this URL's database up to date (``TenantSchema``) and disconnects:
    /// a template for ``createDatabase(named:template:)``.
    package func migrateDatabase() async throws(TenantError) {
        try await PostgresTenantStore(url: self, maximumConnections: 1, logger: PostgresTenantStore.quiet).close()
    }

    /// An SQL identifier, quoted.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacing("\"", with: "\"\"") + "\""
    }
}
