import FoundationEssentials
import PostgresNIO

extension PostgresTenantStore {
    /// Stores a pending session under the digest of its `auth_session`.
    func insertSession(_ session: PendingSession, digest: [UInt8]) async throws(TenantError) {
        let json = Self.json(session)
        try await withConnection { connection in
            try await connection.run(
                """
                INSERT INTO sessions (digest, session, expires_at)
                VALUES (\(Data(digest)), \(json), \(session.expiresAt.storedValue))
                """)
        }
    }

    /// Removes and returns the session stored under `digest`, if it has not expired, with one
    /// `DELETE … RETURNING`: of two instances presenting one `auth_session` at once, one gets it.
    /// Expired sessions go too.
    func takeSession(digest: [UInt8], at time: Date) async throws(TenantError) -> PendingSession? {
        let json = try await withConnection { connection -> String? in
            try await connection.run("DELETE FROM sessions WHERE expires_at <= \(time.storedValue)")
            guard
                let row = try await connection.rows(
                    "DELETE FROM sessions WHERE digest = \(Data(digest)) RETURNING session, expires_at"
                ).first, try row.value("expires_at", as: Double.self) > time.storedValue
            else { return nil }
            return try row.value("session", as: String.self)
        }
        guard let json else { return nil }
        return try Self.decodeJSON(PendingSession.self, json, what: "session")
    }
}
