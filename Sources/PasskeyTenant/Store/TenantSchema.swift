/// The tenant's one logical schema, as a list of migrations each store applies in order: the
/// SQLite text and the PostgreSQL text of each version side by side, so both stores hold the same
/// tables whatever database they run on.
///
/// A released migration is never edited: a change is a new version. SQLite records the names in
/// GRDB's `grdb_migrations`; PostgreSQL in `schema_migrations(version)`, under an advisory lock so
/// two instances starting at once migrate once.
///
/// PostgreSQL's types for SQLite's: `BYTEA` for `BLOB`, `DOUBLE PRECISION` for `REAL` (instants
/// are seconds since 1970), `BOOLEAN` as is; emails and usernames are unique without regard to
/// case through unique indexes on `lower(…)` (SQLite: `COLLATE NOCASE`), and the queries compare
/// `lower(…)` too.
enum TenantSchema {
    /// One version of the schema.
    struct Migration: Sendable {
        /// The version's name, `v1`, `v2`, …: the identifier both stores record.
        let version: String
        /// The statements for SQLite.
        let sqlite: String
        /// The statements for PostgreSQL.
        let postgres: String
    }

    /// Every version, oldest first.
    static let migrations: [Migration] = [v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14]

    /// Settings, users and their passkeys, pending sessions, refresh tokens.
    static let v1 = Migration(
        version: "v1",
        sqlite: """
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
            """,
        postgres: """
            CREATE TABLE settings (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
            CREATE TABLE users (
                id TEXT PRIMARY KEY NOT NULL,
                user_handle BYTEA NOT NULL UNIQUE,
                email TEXT,
                phone_number TEXT UNIQUE,
                username TEXT,
                profile TEXT NOT NULL,
                metadata TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL);
            CREATE UNIQUE INDEX users_email ON users (lower(email));
            CREATE UNIQUE INDEX users_username ON users (lower(username));
            CREATE TABLE credentials (
                id BYTEA PRIMARY KEY NOT NULL,
                method_id TEXT NOT NULL UNIQUE,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                public_key BYTEA NOT NULL,
                algorithm INTEGER NOT NULL,
                sign_count BIGINT NOT NULL,
                backup_eligible BOOLEAN NOT NULL,
                backed_up BOOLEAN NOT NULL,
                aaguid TEXT NOT NULL,
                transports TEXT NOT NULL,
                user_agent TEXT,
                created_at DOUBLE PRECISION NOT NULL,
                last_auth_at DOUBLE PRECISION);
            CREATE INDEX credentials_user ON credentials(user_id);
            CREATE TABLE sessions (
                digest BYTEA PRIMARY KEY NOT NULL,
                session TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL);
            CREATE TABLE refresh_tokens (
                digest BYTEA PRIMARY KEY NOT NULL,
                family TEXT NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                client_id TEXT NOT NULL,
                scope TEXT NOT NULL,
                audience TEXT,
                organization TEXT,
                expires_at DOUBLE PRECISION NOT NULL,
                rotated BOOLEAN NOT NULL DEFAULT FALSE);
            CREATE INDEX refresh_tokens_family ON refresh_tokens(family);
            """)

    /// Web Auth (auth0-passkey-api.md §14): login pages, authorization codes, login sessions,
    /// revoked access tokens, and each refresh token's original login time.
    static let v2 = Migration(
        version: "v2",
        sqlite: """
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
            """,
        postgres: """
            CREATE TABLE login_transactions (
                digest BYTEA PRIMARY KEY NOT NULL,
                body TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL);
            CREATE TABLE authorization_codes (
                digest BYTEA PRIMARY KEY NOT NULL,
                body TEXT NOT NULL,
                access_jti TEXT NOT NULL,
                refresh_family TEXT NOT NULL,
                redeemed BOOLEAN NOT NULL DEFAULT FALSE,
                expires_at DOUBLE PRECISION NOT NULL);
            CREATE TABLE login_sessions (
                digest BYTEA PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                auth_time DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL);
            CREATE TABLE revoked_tokens (
                jti TEXT PRIMARY KEY NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL);
            ALTER TABLE refresh_tokens ADD COLUMN auth_time DOUBLE PRECISION;
            """)

    /// My Account management (auth0-passkey-api.md §19.1): the name a user gives a passkey.
    static let v3 = Migration(
        version: "v3",
        sqlite: "ALTER TABLE credentials ADD COLUMN name TEXT",
        postgres: "ALTER TABLE credentials ADD COLUMN name TEXT")

    /// The Management API (auth0-passkey-api.md §15): a seeded passkey's own user handle (NULL:
    /// the owner's), and `email_verified` as the API sets it.
    static let v4 = Migration(
        version: "v4",
        sqlite: """
            ALTER TABLE credentials ADD COLUMN user_handle BLOB;
            ALTER TABLE users ADD COLUMN email_verified BOOLEAN NOT NULL DEFAULT 0;
            """,
        postgres: """
            ALTER TABLE credentials ADD COLUMN user_handle BYTEA;
            ALTER TABLE users ADD COLUMN email_verified BOOLEAN NOT NULL DEFAULT FALSE;
            """)

    /// Organizations (auth0-passkey-api.md §17): the memberships made at signup or login.
    static let v5 = Migration(
        version: "v5",
        sqlite: """
            CREATE TABLE organization_members (
                organization_id TEXT NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at REAL NOT NULL,
                PRIMARY KEY (organization_id, user_id));
            """,
        postgres: """
            CREATE TABLE organization_members (
                organization_id TEXT NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (organization_id, user_id));
            """)

    /// DPoP (auth0-passkey-api.md §16; RFC 9449 §5, §11.1): the key a refresh token is bound to,
    /// and the proofs seen lately, so a replayed `jti` is refused across restarts.
    static let v6 = Migration(
        version: "v6",
        sqlite: """
            ALTER TABLE refresh_tokens ADD COLUMN dpop_jkt TEXT;
            CREATE TABLE dpop_proofs (
                digest BLOB PRIMARY KEY NOT NULL,
                expires_at REAL NOT NULL);
            """,
        postgres: """
            ALTER TABLE refresh_tokens ADD COLUMN dpop_jkt TEXT;
            CREATE TABLE dpop_proofs (
                digest BYTEA PRIMARY KEY NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL);
            """)

    /// The attempt limiter (Auth0 brute-force protection) in the database, so that every instance
    /// counts the same failures: one row per failure of a key (`user:<id>`, `address:<address>`).
    static let v7 = Migration(
        version: "v7",
        sqlite: """
            CREATE TABLE attempt_failures (key TEXT NOT NULL, failed_at REAL NOT NULL);
            CREATE INDEX attempt_failures_key ON attempt_failures(key, failed_at);
            """,
        postgres: """
            CREATE TABLE attempt_failures (key TEXT NOT NULL, failed_at DOUBLE PRECISION NOT NULL);
            CREATE INDEX attempt_failures_key ON attempt_failures(key, failed_at);
            """)

    /// The `sid` claim (OpenID Connect Front-Channel Logout 1.0 §3; Back-Channel Logout 1.0 §2.1):
    /// the random ID of a login session, kept with the session and with the refresh tokens issued
    /// from it, so that every ID token of one session names it alike. NULL for rows written before.
    static let v8 = Migration(
        version: "v8",
        sqlite: """
            ALTER TABLE login_sessions ADD COLUMN sid TEXT;
            ALTER TABLE refresh_tokens ADD COLUMN sid TEXT;
            """,
        postgres: """
            ALTER TABLE login_sessions ADD COLUMN sid TEXT;
            ALTER TABLE refresh_tokens ADD COLUMN sid TEXT;
            """)

    /// Upstream OpenID Connect connections (``UpstreamConnection``): a federated user's identity
    /// (``UserIdentity`` as JSON; NULL for the database connection's users, whose identity is
    /// `auth0` / the connection / the ID without `auth0|`), and the authorization requests sent
    /// upstream (``UpstreamRequest``) under the SHA-256 digest of their `state`.
    static let v9 = Migration(
        version: "v9",
        sqlite: """
            ALTER TABLE users ADD COLUMN identity TEXT;
            CREATE TABLE upstream_requests (
                digest BLOB PRIMARY KEY NOT NULL,
                body TEXT NOT NULL,
                expires_at REAL NOT NULL);
            """,
        postgres: """
            ALTER TABLE users ADD COLUMN identity TEXT;
            CREATE TABLE upstream_requests (
                digest BYTEA PRIMARY KEY NOT NULL,
                body TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL);
            """)

    /// The local outbox (``OutboxMailbox``): each recipient's messages as JSON under the SHA-256
    /// digest of the recipient in lower case.
    static let v10 = Migration(
        version: "v10",
        sqlite: """
            CREATE TABLE outbox (
                digest BLOB PRIMARY KEY NOT NULL,
                body TEXT NOT NULL,
                expires_at REAL NOT NULL);
            """,
        postgres: """
            CREATE TABLE outbox (
                digest BYTEA PRIMARY KEY NOT NULL,
                body TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL);
            """)
}
