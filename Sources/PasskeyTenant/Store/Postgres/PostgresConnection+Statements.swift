import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs a statement, discarding its rows.
    func run(_ query: PostgresQuery) async throws {
        _ = try await self.query(query, logger: PostgresTenantStore.quiet).collect()
    }

    /// Runs a statement and collects its rows.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await self.query(query, logger: PostgresTenantStore.quiet).collect()
    }
}

extension PostgresTenantStore {
    /// The logger statements run with: none (a statement's parameters may be secrets' digests).
    static let quiet = Logger(label: "passkey-tenant-postgres", factory: { _ in SwiftLogNoOpLogHandler() })
}

extension PostgresRow {
    /// The value of the column `name`.
    func value<T: PostgresDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        try makeRandomAccess()[name].decode(T.self)
    }
}
