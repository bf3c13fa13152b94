import FoundationEssentials
import GRDB
import WebAuthn

extension SQLiteTenantStore {
    /// Stores a login page's transaction under the digest of its ID.
    func insertTransaction(_ transaction: LoginTransaction, digest: [UInt8]) async throws(TenantError) {
        let body = Self.json(transaction)
        try await write { db in
            try db.execute(
                sql: "INSERT INTO login_transactions (digest, body, expires_at) VALUES (?, ?, ?)",
                arguments: [Data(digest), body, transaction.expiresAt.storedValue])
        }
    }

    /// The live transaction stored under `digest`; expired transactions are deleted on the way.
    func transaction(digest: [UInt8], at time: Date) async throws(TenantError) -> LoginTransaction? {
        let body = try await write { db -> String? in
            try db.execute(sql: "DELETE FROM login_transactions WHERE expires_at <= ?", arguments: [time.storedValue])
            return try String.fetchOne(
                db, sql: "SELECT body FROM login_transactions WHERE digest = ?", arguments: [Data(digest)])
        }
        return try body.map(Self.decodeTransaction)
    }

    /// Replaces the transaction stored under `digest` (a new pending ceremony).
    func updateTransaction(_ transaction: LoginTransaction, digest: [UInt8]) async throws(TenantError) {
        let body = Self.json(transaction)
        try await write { db in
            try db.execute(
                sql: "UPDATE login_transactions SET body = ? WHERE digest = ?", arguments: [body, Data(digest)])
        }
    }

    /// Returns the live transaction under `digest` with its pending ceremony, and clears the
    /// ceremony in the store, in one transaction: a challenge is answered at most once.
    ///
    /// - Returns: nil when the transaction is unknown or expired; a transaction whose `challenge`
    ///   is nil when no ceremony is pending.
    func takeCeremony(digest: [UInt8], at time: Date) async throws(TenantError) -> LoginTransaction? {
        let body = try await write { db -> String? in
            guard
                let body = try String.fetchOne(
                    db, sql: "SELECT body FROM login_transactions WHERE digest = ? AND expires_at > ?",
                    arguments: [Data(digest), time.storedValue])
            else { return nil }
            var spent = try Self.decodeTransaction(body)
            spent.mode = nil
            spent.challenge = nil
            spent.user = nil
            try db.execute(
                sql: "UPDATE login_transactions SET body = ? WHERE digest = ?",
                arguments: [Self.json(spent), Data(digest)])
            return body
        }
        return try body.map(Self.decodeTransaction)
    }

    /// Ends a transaction: its page has done its work.
    func deleteTransaction(digest: [UInt8]) async throws(TenantError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM login_transactions WHERE digest = ?", arguments: [Data(digest)])
        }
    }

    private static func decodeTransaction(_ body: String) throws(TenantError) -> LoginTransaction {
        try decodeJSON(LoginTransaction.self, body, what: "login transaction")
    }
}
