import FoundationEssentials
import GRDB

extension SQLiteTenantStore {
    /// Whether the access token with this `jti` was revoked (a replayed authorization code's).
    func isRevoked(jti: String) async throws(TenantError) -> Bool {
        try await read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM revoked_tokens WHERE jti = ?", arguments: [jti]) == true
        }
    }

    /// Records `jti` as revoked until `until`, when the token has expired anyway; older records go.
    static func revoke(jti: String, until: Date, at time: Date, in db: Database) throws {
        try db.execute(sql: "DELETE FROM revoked_tokens WHERE expires_at <= ?", arguments: [time.storedValue])
        try db.execute(
            sql: "INSERT OR REPLACE INTO revoked_tokens (jti, expires_at) VALUES (?, ?)",
            arguments: [jti, until.storedValue])
    }
}
