import FoundationEssentials
import PostgresNIO

extension PostgresTenantStore {
    /// Whether the access token with this `jti` was revoked (a replayed authorization code's).
    func isRevoked(jti: String) async throws(TenantError) -> Bool {
        try await withConnection { connection in
            try await !connection.rows("SELECT 1 FROM revoked_tokens WHERE jti = \(jti)").isEmpty
        }
    }

    /// Records `jti` as revoked until `until`, when the token has expired anyway; older records go.
    static func revoke(jti: String, until: Date, at time: Date, on connection: PostgresConnection) async throws {
        try await connection.run("DELETE FROM revoked_tokens WHERE expires_at <= \(time.storedValue)")
        try await connection.run(
            """
            INSERT INTO revoked_tokens (jti, expires_at) VALUES (\(jti), \(until.storedValue))
            ON CONFLICT (jti) DO UPDATE SET expires_at = EXCLUDED.expires_at
            """)
    }
}
