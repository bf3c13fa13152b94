extension TenantSchema {
    /// Passwordless codes and magic links (``PasswordlessCode``): each as JSON under
    /// the SHA-256 digest of its application, connection and address; the code itself only as a
    /// digest inside.
    static let v12 = Migration(
        version: "v12",
        sqlite: """
            CREATE TABLE passwordless_codes (
                digest BLOB PRIMARY KEY NOT NULL,
                body TEXT NOT NULL,
                expires_at REAL NOT NULL);
            """,
        postgres: """
            CREATE TABLE passwordless_codes (
                digest BYTEA PRIMARY KEY NOT NULL,
                body TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL);
            """)
}
