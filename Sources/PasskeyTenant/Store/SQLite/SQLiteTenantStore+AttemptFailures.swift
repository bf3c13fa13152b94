import FoundationEssentials
import GRDB

// The attempt limiter's failures (Auth0's brute-force protection) in the database, so that every
// tenant value on the file counts every other's failures and a restart forgets none.
extension SQLiteTenantStore {
    /// The failures of each of `keys` at or after `since` (keys with none are absent): one read,
    /// answered from the `(key, failed_at)` index.
    func failures(of keys: [String], since: Date) async throws(TenantError) -> [String: FailureWindow] {
        guard !keys.isEmpty else { return [:] }
        let placeholders = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        return try await read { db in
            var windows: [String: FailureWindow] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT key, COUNT(*), MIN(failed_at) FROM attempt_failures
                    WHERE key IN (\(placeholders)) AND failed_at >= ? GROUP BY key
                    """,
                arguments: StatementArguments(keys) + [since.storedValue])
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
}
