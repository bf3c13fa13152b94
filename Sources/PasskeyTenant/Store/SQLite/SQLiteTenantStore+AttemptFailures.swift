import FoundationEssentials
import GRDB

// The attempt limiter's failures (Auth0's brute-force protection) in the database, so that every
// tenant value on the file counts every other's failures and a restart forgets none.
extension SQLiteTenantStore {
    /// The failures of each of `keys` at or after `since` (keys with none are absent): one
    /// statement, answered from the `(key, failed_at)` index, prepared once per number of keys.
    ///
    /// Every login checks, so the statement runs outside a transaction (`unsafeRead`): one
    /// SELECT is consistent on its own in SQLite, and skipping BEGIN and COMMIT halves the cost
    /// of the check.
    func failures(of keys: [String], since: Date) async throws(TenantError) -> [String: FailureWindow] {
        guard !keys.isEmpty else { return [:] }
        let placeholders = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        return try await readOneStatement { db in
            var windows: [String: FailureWindow] = [:]
            let statement = try db.cachedStatement(
                sql: """
                    SELECT key, COUNT(*), MIN(failed_at) FROM attempt_failures
                    WHERE key IN (\(placeholders)) AND failed_at >= ? GROUP BY key
                    """)
            let rows = try Row.fetchCursor(statement, arguments: StatementArguments(keys) + [since.storedValue])
            while let row = try rows.next() {
                windows[row[0]] = FailureWindow(count: row[1], oldest: Date(timeIntervalSince1970: row[2]))
            }
            return windows
        }
    }

    /// Counts one failure of each of `keys` at `time`, in one transaction; failures before
    /// `forgetBefore` (of any key) are deleted on the way, so the table holds one window at most.
    func recordFailure(of keys: [String], at time: Date, forgetBefore: Date) async throws(TenantError) {
        guard !keys.isEmpty else { return }
        try await write { db in
            try db.execute(
                sql: "DELETE FROM attempt_failures WHERE failed_at < ?", arguments: [forgetBefore.storedValue])
            for key in keys {
                try db.execute(
                    sql: "INSERT INTO attempt_failures (key, failed_at) VALUES (?, ?)",
                    arguments: [key, time.storedValue])
            }
        }
    }

    /// Runs `body`, which executes one statement, on a reader without a transaction, turning
    /// database faults into `server_error`.
    private func readOneStatement<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T)
        async throws(TenantError) -> T
    {
        do {
            return try await writer.unsafeRead(body)
        } catch {
            throw Self.failure(error)
        }
    }
}
