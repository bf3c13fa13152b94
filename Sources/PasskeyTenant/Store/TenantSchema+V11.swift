extension TenantSchema {
    /// Database connections with passwords: each user's scrypt hash (``StoredPassword``,
    /// deleted with its user), and the password-reset tickets (``PasswordTicket``) under the
    /// SHA-256 digest of the ticket.
    static let v11 = Migration(
        version: "v11",
        sqlite: """
            CREATE TABLE passwords (
                user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                hash TEXT NOT NULL,
                expires_at REAL NOT NULL);
            CREATE TABLE password_tickets (
                digest BLOB PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                client_id TEXT,
                expires_at REAL NOT NULL);
            """,
        postgres: """
            CREATE TABLE passwords (
                user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                hash TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL);
            CREATE TABLE password_tickets (
                digest BYTEA PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                client_id TEXT,
                expires_at DOUBLE PRECISION NOT NULL);
            """)
}
