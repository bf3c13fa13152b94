import Foundation
import TestSupport
import Testing

/// SIGTERM drains (issue 31): a `passkey tenant serve` process with requests in flight finishes
/// them, then exits 0. The requests are held in flight by a lock on the `sessions` table that a
/// `psql` session keeps for a few seconds. Runs when `PASSKEY_TEST_POSTGRES` is set.
@Suite(.enabled(if: PostgresFixture.isAvailable, "PASSKEY_TEST_POSTGRES names no PostgreSQL server"))
struct TenantDrainTests {
    @Test func sigtermFinishesTheRequestsInFlightThenExitsZero() async throws {
        let database = try await PostgresFixture.emptyDatabase()
        let tenant = try await TenantInstance.start(database: database)
        #expect(try await tenant.challengeStatus().status == 200)

        // Hold the table every signup challenge writes to for 4 seconds.
        let locker = Task {
            try await PostgresFixture.psql(
                database, "BEGIN; LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(4); COMMIT;")
        }
        try await waitUntil("the lock is held") {
            try await count(
                database,
                """
                SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                WHERE c.relname = 'sessions' AND l.mode = 'AccessExclusiveLock' AND l.granted
                """) == 1
        }
        let inFlight = 4
        let requests = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<inFlight {
                    group.addTask { try await tenant.challengeStatus().status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        try await waitUntil("the requests wait for the lock") {
            try await count(
                database,
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")
                == inFlight
        }
        tenant.process.send(SIGTERM)
        let statuses = try await PostgresFixture.within(.seconds(30)) { try await requests.value }
        #expect(statuses == Array(repeating: 200, count: inFlight))
        let ended = try await PostgresFixture.within(.seconds(30)) { try await tenant.process.wait() }
        #expect(ended.signal == nil)
        #expect(ended.status == 0, "\(ended)")
        _ = try await locker.value
    }

    private func count(_ database: String, _ sql: String) async throws -> Int {
        Int(try await PostgresFixture.psql(database, sql).first ?? "") ?? -1
    }

    /// Polls `condition` every 50 ms for at most 10 seconds.
    private func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw InstanceFailed(reason: "\(what): not within 10 s") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
