import FoundationEssentials
import GRDB
import WebAuthn

extension SQLiteTenantStore {
    /// Stores a pending session under the digest of its `auth_session`.
    func insertSession(_ session: PendingSession, digest: [UInt8]) async throws(TenantError) {
        let json = Self.json(session)
        try await write { db in
            try db.execute(
                sql: "INSERT INTO sessions (digest, session, expires_at) VALUES (?, ?, ?)",
                arguments: [Data(digest), json, session.expiresAt.storedValue])
        }
    }

    /// Removes and returns the session stored under `digest`, if it has not expired: each
    /// `auth_session` is good for one attempt, whatever its outcome. Expired sessions go too.
    func takeSession(digest: [UInt8], at time: Date) async throws(TenantError) -> PendingSession? {
        let json = try await write { db -> String? in
            try db.execute(sql: "DELETE FROM sessions WHERE expires_at <= ?", arguments: [time.storedValue])
            return try String.fetchOne(
                db, sql: "DELETE FROM sessions WHERE digest = ? RETURNING session", arguments: [Data(digest)])
        }
        guard let json else { return nil }
        return try Self.decodeJSON(PendingSession.self, json, what: "session")
    }
}
