extension TenantSchema {
    /// User metadata and account linking: `app_metadata` as JSON (NULL: never
    /// set), when the Management API last changed a user (NULL: never), and a linked (secondary)
    /// user's primary with the time of the link. Deleting a primary deletes its secondaries, as
    /// deleting a user on Auth0 deletes every identity it holds **[local]**.
    static let v13 = Migration(
        version: "v13",
        sqlite: """
            ALTER TABLE users ADD COLUMN app_metadata TEXT;
            ALTER TABLE users ADD COLUMN updated_at REAL;
            ALTER TABLE users ADD COLUMN primary_user_id TEXT REFERENCES users(id) ON DELETE CASCADE;
            ALTER TABLE users ADD COLUMN linked_at REAL;
            CREATE INDEX users_primary ON users(primary_user_id);
            """,
        postgres: """
            ALTER TABLE users ADD COLUMN app_metadata TEXT;
            ALTER TABLE users ADD COLUMN updated_at DOUBLE PRECISION;
            ALTER TABLE users ADD COLUMN primary_user_id TEXT REFERENCES users(id) ON DELETE CASCADE;
            ALTER TABLE users ADD COLUMN linked_at DOUBLE PRECISION;
            CREATE INDEX users_primary ON users(primary_user_id);
            """)
}
