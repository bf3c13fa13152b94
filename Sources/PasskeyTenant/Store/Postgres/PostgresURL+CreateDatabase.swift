import PostgresNIO

extension PostgresURL {
    /// Creates the database `name` on this URL's server, connected to this URL's database as its
    /// user (the tests' fresh database per tenant), and closes the connection.
    ///
    /// - Returns: the URL of the new database (with the password: never to print).
    /// - Throws: `temporarily_unavailable` when the server cannot be reached, `server_error` when
    ///   it refuses (the name is taken, the user may not create databases).
    package func createDatabase(named name: String) async throws(TenantError) -> String {
        let client = PostgresClient(
            configuration: PostgresTenantStore.configuration(self), backgroundLogger: PostgresTenantStore.quiet)
        let runner = Task { await client.run() }
        defer { runner.cancel() }
        do {
            let quoted = "\"" + name.replacing("\"", with: "\"\"") + "\""
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(quoted)"))
        } catch {
            throw PostgresTenantStore.map(error)
        }
        return text(database: name)
    }
}
