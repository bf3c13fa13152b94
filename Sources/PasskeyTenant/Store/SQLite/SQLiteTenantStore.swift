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

    /// The schema, one migration per change, never edited once released.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE settings (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    CREATE TABLE users (
                        id TEXT PRIMARY KEY NOT NULL,
                        user_handle BLOB NOT NULL UNIQUE,
                        email TEXT UNIQUE COLLATE NOCASE,
                        phone_number TEXT UNIQUE,
                        username TEXT UNIQUE COLLATE NOCASE,
                        profile TEXT NOT NULL,
                        metadata TEXT NOT NULL,
                        created_at REAL NOT NULL);
                    CREATE TABLE credentials (
                        id BLOB PRIMARY KEY NOT NULL,
                        method_id TEXT NOT NULL UNIQUE,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        public_key BLOB NOT NULL,
                        algorithm INTEGER NOT NULL,
                        sign_count INTEGER NOT NULL,
                        backup_eligible BOOLEAN NOT NULL,
                        backed_up BOOLEAN NOT NULL,
                        aaguid TEXT NOT NULL,
                        transports TEXT NOT NULL,
                        user_agent TEXT,
                        created_at REAL NOT NULL,
                        last_auth_at REAL);
                    CREATE INDEX credentials_user ON credentials(user_id);
                    CREATE TABLE sessions (
                        digest BLOB PRIMARY KEY NOT NULL,
                        session TEXT NOT NULL,
                        expires_at REAL NOT NULL);
                    CREATE TABLE refresh_tokens (
                        digest BLOB PRIMARY KEY NOT NULL,
                        family TEXT NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        client_id TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        audience TEXT,
                        organization TEXT,
                        expires_at REAL NOT NULL,
                        rotated BOOLEAN NOT NULL DEFAULT 0);
                    CREATE INDEX refresh_tokens_family ON refresh_tokens(family);
                    """)
        }
        // Web Auth (auth0-passkey-api.md §14): login pages, authorization codes, login sessions,
        // revoked access tokens, and each refresh token's original login time.
        migrator.registerMigration("v2") { db in
            try db.execute(
                sql: """
                    CREATE TABLE login_transactions (
                        digest BLOB PRIMARY KEY NOT NULL,
                        body TEXT NOT NULL,
                        expires_at REAL NOT NULL);
                    CREATE TABLE authorization_codes (
                        digest BLOB PRIMARY KEY NOT NULL,
                        body TEXT NOT NULL,
                        access_jti TEXT NOT NULL,
                        refresh_family TEXT NOT NULL,
                        redeemed BOOLEAN NOT NULL DEFAULT 0,
                        expires_at REAL NOT NULL);
                    CREATE TABLE login_sessions (
                        digest BLOB PRIMARY KEY NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        auth_time REAL NOT NULL,
                        expires_at REAL NOT NULL);
                    CREATE TABLE revoked_tokens (
                        jti TEXT PRIMARY KEY NOT NULL,
                        expires_at REAL NOT NULL);
                    ALTER TABLE refresh_tokens ADD COLUMN auth_time REAL;
                    """)
        }
        // My Account management (auth0-passkey-api.md §19.1): the name a user gives a passkey.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "ALTER TABLE credentials ADD COLUMN name TEXT")
        }
        // The Management API (auth0-passkey-api.md §15): a seeded passkey's own user handle (NULL:
        // the owner's), and `email_verified` as the API sets it.
        migrator.registerMigration("v4") { db in
            try db.execute(
                sql: """
                    ALTER TABLE credentials ADD COLUMN user_handle BLOB;
                    ALTER TABLE users ADD COLUMN email_verified BOOLEAN NOT NULL DEFAULT 0;
                    """)
        }
        // Organizations (auth0-passkey-api.md §17): the memberships made at signup or login.
        migrator.registerMigration("v5") { db in
            try db.execute(
                sql: """
                    CREATE TABLE organization_members (
                        organization_id TEXT NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL,
                        PRIMARY KEY (organization_id, user_id));
                    """)
        }
        // DPoP (auth0-passkey-api.md §16; RFC 9449 §5, §11.1): the key a refresh token is bound to,
        // and the proofs seen lately, so a replayed `jti` is refused across restarts.
        migrator.registerMigration("v6") { db in
            try db.execute(
                sql: """
                    ALTER TABLE refresh_tokens ADD COLUMN dpop_jkt TEXT;
                    CREATE TABLE dpop_proofs (
                        digest BLOB PRIMARY KEY NOT NULL,
                        expires_at REAL NOT NULL);
                    """)
        }
        // The attempt limiter (Auth0's brute-force protection) in the database, so that every
        // instance counts the same failures: one row per failure of a key (`user:<id>`,
        // `address:<address>`).
        migrator.registerMigration("v7") { db in
            try db.execute(
                sql: """
                    CREATE TABLE attempt_failures (key TEXT NOT NULL, failed_at REAL NOT NULL);
                    CREATE INDEX attempt_failures_key ON attempt_failures(key, failed_at);
                    """)
        }
        return migrator
    }

    /// Runs a read, turning database faults into `server_error`.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(TenantError) -> T {
        do {
            return try await writer.read(body)
        } catch let error as TenantError {
            throw error
        } catch {
            throw TenantError(.serverError, status: 500, "database: \(error)")
        }
    }

    /// Runs a write transaction; a `TenantError` thrown inside rolls it back and is rethrown as is.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(TenantError) -> T {
        do {
            return try await writer.write(body)
        } catch let error as TenantError {
            throw error
        } catch {
            throw TenantError(.serverError, status: 500, "database: \(error)")
        }
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
