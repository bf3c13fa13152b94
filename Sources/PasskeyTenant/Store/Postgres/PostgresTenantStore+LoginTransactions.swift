import FoundationEssentials
import PostgresNIO

extension PostgresTenantStore {
    /// Stores a login page's transaction under the digest of its ID.
    func insertTransaction(_ transaction: LoginTransaction, digest: [UInt8]) async throws(TenantError) {
        let body = Self.json(transaction)
        try await withConnection { connection in
            try await connection.run(
                """
                INSERT INTO login_transactions (digest, body, expires_at)
                VALUES (\(Data(digest)), \(body), \(transaction.expiresAt.storedValue))
                """)
        }
    }

    /// The live transaction stored under `digest`; expired transactions are deleted on the way.
    func transaction(digest: [UInt8], at time: Date) async throws(TenantError) -> LoginTransaction? {
        let body = try await withConnection { connection -> String? in
            try await connection.run("DELETE FROM login_transactions WHERE expires_at <= \(time.storedValue)")
            return try await connection.rows(
                "SELECT body FROM login_transactions WHERE digest = \(Data(digest)) AND expires_at > \(time.storedValue)"
            ).first?.value("body", as: String.self)
        }
        return try body.map(Self.decodeTransaction)
    }

    /// Replaces the transaction stored under `digest` (a new pending ceremony).
    func updateTransaction(_ transaction: LoginTransaction, digest: [UInt8]) async throws(TenantError) {
        let body = Self.json(transaction)
        try await withConnection { connection in
            try await connection.run("UPDATE login_transactions SET body = \(body) WHERE digest = \(Data(digest))")
        }
    }

    /// Returns the live transaction under `digest` with its pending ceremony, and clears the
    /// ceremony in the store, in one transaction holding the row: a challenge is answered at
    /// most once, at whichever instance.
    ///
    /// - Returns: nil when the transaction is unknown or expired; a transaction whose `challenge`
    ///   is nil when no ceremony is pending.
    func takeCeremony(digest: [UInt8], at time: Date) async throws(TenantError) -> LoginTransaction? {
        let body = try await self.transaction { connection -> String? in
            guard
                let body = try await connection.rows(
                    """
                    SELECT body FROM login_transactions WHERE digest = \(Data(digest)) AND expires_at > \(time.storedValue)
                    FOR UPDATE
                    """
                ).first?.value("body", as: String.self)
            else { return nil }
            var spent = try Self.decodeTransaction(body)
            spent.mode = nil
            spent.challenge = nil
            spent.user = nil
            let spentBody = Self.json(spent)
            try await connection.run(
                "UPDATE login_transactions SET body = \(spentBody) WHERE digest = \(Data(digest))")
            return body
        }
        return try body.map(Self.decodeTransaction)
    }

    /// Ends a transaction: its page has done its work.
    func deleteTransaction(digest: [UInt8]) async throws(TenantError) {
        try await withConnection { connection in
            try await connection.run("DELETE FROM login_transactions WHERE digest = \(Data(digest))")
        }
    }

    private static func decodeTransaction(_ body: String) throws(TenantError) -> LoginTransaction {
        try decodeJSON(LoginTransaction.self, body, what: "login transaction")
    }
}
