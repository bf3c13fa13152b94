import FoundationEssentials
import PostgresNIO

extension PostgresTenantStore {
    /// Stores a login session under the digest of its cookie value.
    func insertLoginSession(_ session: LoginSession, digest: [UInt8]) async throws(TenantError) {
        try await withConnection { connection in
            try await connection.run(
                """
                INSERT INTO login_sessions (digest, user_id, auth_time, expires_at)
                VALUES (\(Data(digest)), \(session.userID), \(session.authTime.storedValue),
                    \(session.expiresAt.storedValue))
                """)
        }
    }

    /// The live login session under `digest`; expired sessions are deleted on the way.
    func loginSession(digest: [UInt8], at time: Date) async throws(TenantError) -> LoginSession? {
        try await withConnection { connection in
            try await connection.run("DELETE FROM login_sessions WHERE expires_at <= \(time.storedValue)")
            guard
                let row = try await connection.rows(
                    "SELECT * FROM login_sessions WHERE digest = \(Data(digest)) AND expires_at > \(time.storedValue)"
                ).first
            else { return nil }
            return LoginSession(
                userID: try row.value("user_id"), authTime: Date(timeIntervalSince1970: try row.value("auth_time")),
                expiresAt: Date(timeIntervalSince1970: try row.value("expires_at")))
        }
    }

    /// Ends a login session (logout).
    func deleteLoginSession(digest: [UInt8]) async throws(TenantError) {
        try await withConnection { connection in
            try await connection.run("DELETE FROM login_sessions WHERE digest = \(Data(digest))")
        }
    }
}
