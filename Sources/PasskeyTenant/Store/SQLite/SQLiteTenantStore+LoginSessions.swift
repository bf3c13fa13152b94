import FoundationEssentials
import GRDB

extension SQLiteTenantStore {
    /// Stores a login session under the digest of its cookie value.
    func insertLoginSession(_ session: LoginSession, digest: [UInt8]) async throws(TenantError) {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO login_sessions (digest, user_id, auth_time, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [
                    Data(digest), session.userID, session.authTime.storedValue, session.expiresAt.storedValue,
                ])
        }
    }

    /// The live login session under `digest`; expired sessions are deleted on the way.
    func loginSession(digest: [UInt8], at time: Date) async throws(TenantError) -> LoginSession? {
        try await write { db in
            try db.execute(sql: "DELETE FROM login_sessions WHERE expires_at <= ?", arguments: [time.storedValue])
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM login_sessions WHERE digest = ?", arguments: [Data(digest)])
            else { return nil }
            return LoginSession(
                userID: row["user_id"], authTime: Date(timeIntervalSince1970: row["auth_time"]),
                expiresAt: Date(timeIntervalSince1970: row["expires_at"]))
        }
    }

    /// Ends a login session (logout).
    func deleteLoginSession(digest: [UInt8]) async throws(TenantError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM login_sessions WHERE digest = ?", arguments: [Data(digest)])
        }
    }
}
