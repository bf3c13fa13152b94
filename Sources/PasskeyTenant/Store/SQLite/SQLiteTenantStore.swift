import FoundationEssentials
import GRDB
import Glibc
import WebAuthn

/// The tenant's store in one SQLite file (GRDB), for one process: created and upgraded by
/// migrations.
///
/// The signing key is kept as is, so a database file is created with mode 0600. `:memory:` gives a
/// database that lives as long as the value.
struct SQLiteTenantStore: TenantStore {
    let writer: any DatabaseWriter

    /// Opens (creating if needed) the database at `path`, or an in-memory one for `:memory:`,
    /// and runs the migrations.
    ///
    /// - Throws: `server_error` when the file cannot be opened or migrated.
    init(path: String) throws(TenantError) {
        do {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            configuration.busyMode = .timeout(5)
            if path == ":memory:" {
                writer = try DatabaseQueue(configuration: configuration)
            } else {
                writer = try DatabasePool(path: path, configuration: configuration)
                chmod(path, 0o600)
            }
            try Self.migrator.migrate(writer)
        } catch let error as TenantError {
            throw error
        } catch {
            throw TenantError(.serverError, status: 500, "database \(path): \(error)")
        }
    }

    /// The schema (``TenantSchema``), one migration per change, never edited once released.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in TenantSchema.migrations {
            migrator.registerMigration(migration.version) { db in try db.execute(sql: migration.sqlite) }
        }
        return migrator
    }

    /// Nothing to close: the database closes when the store is released.
    func close() async {}

    /// Runs a read, turning database faults into `server_error`.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(TenantError) -> T {
        do {
            return try await writer.read(body)
        } catch {
            throw Self.failure(error)
        }
    }

    /// Runs a write transaction; a `TenantError` thrown inside rolls it back and is rethrown as is.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(TenantError) -> T {
        do {
            return try await writer.write(body)
        } catch {
            throw Self.failure(error)
        }
    }

    /// What a store call answers for `error`: a `TenantError` thrown by the statements as is,
    /// any database fault as `server_error`.
    static func failure(_ error: any Error) -> TenantError {
        error as? TenantError ?? TenantError(.serverError, status: 500, "database: \(error)")
    }

    // MARK: Settings

    /// The stored value of `key`, or `make()`'s, stored now, when there is none.
    func setting(_ key: String, orStore make: @escaping @Sendable () throws -> String) async throws(TenantError)
        -> String
    {
        try await write { db in
            if let value = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [key]) {
                return value
            }
            let value = try make()
            try db.execute(sql: "INSERT INTO settings (key, value) VALUES (?, ?)", arguments: [key, value])
            return value
        }
    }
}
