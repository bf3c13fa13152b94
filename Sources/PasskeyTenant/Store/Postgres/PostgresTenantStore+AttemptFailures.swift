import FoundationEssentials
import PostgresNIO

// The attempt limiter's failures (Auth0 brute-force protection) in the database, so that every
// instance counts every instance's failures.
extension PostgresTenantStore {
    /// The failures of each of `keys` at or after `since` (keys with none are absent).
    func failures(of keys: [String], since: Date) async throws(TenantError) -> [String: FailureWindow] {
        try await withConnection { connection in
            var windows: [String: FailureWindow] = [:]
            for row in try await connection.rows(LoginStatements.Failures(keys: keys, since: since)) {
                windows[try row.value("key")] = FailureWindow(
                    count: Int(try row.value("failures", as: Int64.self)),
                    oldest: Date(timeIntervalSince1970: try row.value("oldest")))
            }
            return windows
        }
    }

    /// Counts one failure of each of `keys` at `time`, in one transaction; failures before
    /// `forgetBefore` (of any key) are deleted on the way.
    func recordFailure(of keys: [String], at time: Date, forgetBefore: Date) async throws(TenantError) {
        try await transaction { connection in
            try await connection.run("DELETE FROM attempt_failures WHERE failed_at < \(forgetBefore.storedValue)")
            try await connection.run(
                "INSERT INTO attempt_failures (key, failed_at) SELECT unnest(\(keys)::text[]), \(time.storedValue)")
        }
    }
}
