import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import Synchronization
import TestSupport
import Testing

/// The database restarted under load (issue 31): a tenant process answers 503 with Retry-After
/// while it is gone (no crash, no hang), serves again once it is back, and leaves no half-written
/// user, credential or token. The cluster is the test's own (`pg-cluster.sh` in a temporary
/// directory), so the other suites' server stays up. Runs when `PASSKEY_TEST_POSTGRES` is set.
@Suite(.enabled(if: PostgresFixture.isAvailable, "PASSKEY_TEST_POSTGRES names no PostgreSQL server"))
struct DatabaseFaultTests {
    /// What one signup of the load ended with.
    private struct Signup: Sendable {
        let email: String
        let device: PlatformCredentialProvider
        /// 200, the refusal's status, or 0 for a failure without one (a timeout, a reset).
        let status: Int
        /// Why it failed, when it did.
        let failure: String
    }

    @Test func aRestartedDatabaseGives503WithRetryAfterThenServesAgain() async throws {
        let directory = try TemporaryDirectory(prefix: "passkey-pg-fault")
        defer { directory.remove() }
        let server = try await PostgresFixture.cluster("start", directory.path)
        do {
            try await restartUnderLoad(server: server, clusterDirectory: directory.path)
        } catch {
            _ = try? await PostgresFixture.cluster("stop", directory.path)
            throw error
        }
        try await PostgresFixture.cluster("stop", directory.path)
    }

    private func restartUnderLoad(server: String, clusterDirectory: String) async throws {
        let database = try await PostgresFixture.emptyDatabase(on: server)
        let tenant = try await TenantInstance.start(database: database)
        // Two virtual users sign up one after another until told to stop.
        let progress = LoadProgress()
        let load = Task {
            try await withThrowingTaskGroup(of: [Signup].self) { group in
                for worker in 0..<2 {
                    group.addTask {
                        var done: [Signup] = []
                        var index = 0
                        while !progress.isStopped {
                            let email = "user-\(worker)-\(index)@example.com"
                            index += 1
                            let device = TenantInstance.device()
                            var status = 200
                            var failure = ""
                            var step = "the signup challenge"
                            do {
                                let (challenge, passkey) = try await tenant.registration(email, device: device)
                                step = "the webauthn grant"
                                _ = try await tenant.auth.login(passkey: passkey, challenge: challenge).start()
                            } catch {
                                status = (error as? AuthenticationError)?.statusCode ?? 0
                                failure = "\(step): \(error)"
                            }
                            done.append(Signup(email: email, device: device, status: status, failure: failure))
                            progress.count(status)
                            if status != 200 { try await Task.sleep(for: .milliseconds(100)) }
                        }
                        return done
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
        }
        // The load is under way: two signups went through before the database goes.
        try await progress.wait(until: "2 signups before the stop") { $0.succeeded >= 2 }
        let refusedBefore = progress.state.refused
        try await PostgresFixture.cluster("stop", clusterDirectory)
        // While the database is gone: 503 with Retry-After, within the store's bound.
        let clock = ContinuousClock()
        let asked = clock.now
        let down = try await tenant.challengeStatus()
        #expect(down.status == 503)
        #expect(down.retryAfter == "1")
        #expect(clock.now - asked < .seconds(15))
        // The load met the outage too: one of its signups was refused.
        try await progress.wait(until: "a refused signup while the database is gone") { $0.refused > refusedBefore }
        try await PostgresFixture.cluster("start", clusterDirectory)
        // Back: the pool connects again by itself.
        let deadline = clock.now + .seconds(30)
        var up = try await tenant.challengeStatus()
        while up.status != 200, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            up = try await tenant.challengeStatus()
        }
        #expect(up.status == 200)
        // The load went on once the database was back: two more signups went through.
        let before = progress.state.succeeded
        try await progress.wait(until: "2 signups after the restart") { $0.succeeded >= before + 2 }
        progress.stop()
        let signups = try await PostgresFixture.within(.seconds(60)) { try await load.value }

        // Every signup answered 200 or 503: none other, none unanswered.
        let statuses = Set(signups.map(\.status))
        let odd = signups.filter { ![200, 503].contains($0.status) }.map { "\($0.status): \($0.failure)" }
        #expect(statuses.isSubset(of: [200, 503]), "\(odd)")
        let succeeded = signups.filter { $0.status == 200 }
        #expect(succeeded.count >= 4, "\(signups.count) signups, \(succeeded.count) succeeded")
        // Every signup that answered 200 logs in.
        for signup in succeeded {
            _ = try await tenant.logIn(device: signup.device)
        }
        // Nothing half-written: every user has a passkey, every passkey and token a user.
        let orphans = try await PostgresFixture.psql(
            database,
            """
            SELECT (SELECT count(*) FROM users u WHERE NOT EXISTS (SELECT 1 FROM credentials c WHERE c.user_id = u.id)),
                   (SELECT count(*) FROM credentials c WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id)),
                   (SELECT count(*) FROM refresh_tokens t WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = t.user_id)),
                   (SELECT count(*) FROM users)
            """)
        let counts = orphans.first?.split(separator: "|").map(String.init) ?? []
        #expect(counts.prefix(3) == ["0", "0", "0"], "\(orphans)")
        // A user exists for each signup that answered 200, and for no more than were tried.
        let users = Int(counts.last ?? "") ?? -1
        #expect(users >= succeeded.count && users <= signups.count, "\(users) users, \(signups.count) signups")
        let ended = try await tenant.stop()
        #expect(ended.status == 0, "\(ended)")
    }
}

/// How the load is going: the signups that went through and the ones refused, and whether it
/// was told to stop. The test waits for these events, not for time.
private final class LoadProgress: Sendable {
    struct State {
        var succeeded = 0
        var refused = 0
        var stopped = false
    }

    private let value = Mutex(State())
    var state: State { value.withLock { $0 } }
    var isStopped: Bool { state.stopped }
    func stop() { value.withLock { $0.stopped = true } }

    /// Counts a signup that ended with `status` (200, or a refusal).
    func count(_ status: Int) {
        value.withLock { status == 200 ? ($0.succeeded += 1) : ($0.refused += 1) }
    }

    /// Returns once `condition` holds, looking every 20 ms.
    ///
    /// - Throws: when it does not hold within 60 seconds, naming `event`.
    func wait(until event: String, _ condition: (State) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition(state) {
            guard ContinuousClock.now < deadline else { throw LoadStalled(event: event) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// The load did not reach an event the test waited for.
private struct LoadStalled: Error, CustomStringConvertible {
    let event: String
    var description: String { "the load did not reach: \(event)" }
}
