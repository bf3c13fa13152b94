extension TenantSchema {
    /// Native to Web SSO and invitations: session transfer tokens (``SessionTransfer``) under the SHA-256 digest of
    /// the token, and each organization's invitations (``OrganizationInvitations``) as JSON under
    /// the SHA-256 digest of the organization's ID.
    static let v14 = Migration(
        version: "v14",
        sqlite: """
            CREATE TABLE session_transfer_tokens (
                digest BLOB PRIMARY KEY NOT NULL,
                body TEXT NOT NULL,
                expires_at REAL NOT NULL);
            CREATE TABLE organization_invitations (
                digest BLOB PRIMARY KEY NOT NULL,
                body TEXT NOT NULL,
                expires_at REAL NOT NULL);
            """,
        postgres: """
            CREATE TABLE session_transfer_tokens (
                digest BYTEA PRIMARY KEY NOT NULL,
                body TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL);
            CREATE TABLE organization_invitations (
                digest BYTEA PRIMARY KEY NOT NULL,
                body TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL);
            """)
}
