import Dispatch
import Foundation
import Glibc
import PasskeyTenant

/// The PostgreSQL databases the tests make on ``TestTenant/postgresServer``, one per tenant, and
/// how they go away though Swift Testing has no hook at the end of a run.
///
/// Each is named `passkey_test_<pid>_<random hex>` after the test process that made it. Before
/// its first database, a process drops every test database whose process is gone (`kill(pid, 0)`
/// fails with `ESRCH`): what a crashed, killed or timed-out run left. At exit (`atexit`) it drops
/// its own, within a bound; what that misses, the next run's sweep drops. `DROP DATABASE … WITH
/// (FORCE)` closes the connections a tenant never closed. `make postgres-test` runs on a throwaway
/// cluster, removed with its databases after the run, and says so (`PASSKEY_TEST_POSTGRES_THROWAWAY=1`):
/// there the drop at exit, a checkpoint per database, is skipped. The sweep and the drop are for a
/// developer's long-lived server in `PASSKEY_TEST_POSTGRES`.
///
/// The server must be local to the tests: a PID is looked up on this machine, in this PID
/// namespace, so a server shared with test runs in other machines or containers would lose
/// their databases under them.
public enum TestDatabase {
    /// What every test database's name starts with.
    public static let prefix = "passkey_test_"

    /// A new name for a database of this process: `passkey_test_<pid>_<random hex>`.
    public static func name() -> String {
        prefix + "\(getpid())_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
    }

    /// Creates a database named by ``name()`` on `server`, a copy of `template` or empty; on the
    /// tests' server, after the process's sweep.
    ///
    /// - Parameters:
    ///   - server: the admin URL of the server; the tests' server by default.
    ///   - template: the database to copy (no one connected to it), or nil for an empty one.
    /// - Returns: the URL of the new database (with the password: never to print).
    /// - Throws: `TenantError` when the server cannot be reached or refuses.
    public static func create(on server: String? = TestTenant.postgresServer, template: String? = nil)
        async throws -> String
    {
        guard let server else { throw TenantError(.invalidConfiguration, "PASSKEY_TEST_POSTGRES is not set") }
        if server == TestTenant.postgresServer {
            try await swept.value
        }
        return try await PostgresURL(server).createDatabase(named: name(), template: template)
    }

    /// Drops the test databases on `server` whose process `keeps` does not keep: by default those
    /// whose process is gone.
    ///
    /// - Returns: the names dropped.
    /// - Throws: `TenantError` when the server cannot be reached or refuses.
    @discardableResult
    public static func sweep(_ server: String, keeping keeps: (Int32) -> Bool = isRunning) async throws -> [String] {
        let url = try PostgresURL(server)
        var dropped: [String] = []
        for name in try await url.databaseNames(startingWith: prefix) {
            guard let pid = process(of: name), !keeps(pid) else { continue }
            try await url.dropDatabase(named: name)
            dropped.append(name)
        }
        return dropped
    }

    /// The process that made the test database `name`, or nil when `name` is not one.
    public static func process(of name: String) -> Int32? {
        guard name.hasPrefix(prefix) else { return nil }
        let parts = name.dropFirst(prefix.count).split(separator: "_")
        guard parts.count == 2, let pid = Int32(parts[0]), pid > 0 else { return nil }
        return pid
    }

    /// Whether process `pid` exists: `kill(pid, 0)` succeeds, or fails for a reason other than
    /// `ESRCH` (`EPERM`: another user's).
    public static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// The sweep of the tests' server, once per process, and the drop at exit registered.
    private static let swept = Task<Void, any Error> {
        guard let server = TestTenant.postgresServer else { return }
        try await sweep(server)
        if ProcessInfo.processInfo.environment["PASSKEY_TEST_POSTGRES_THROWAWAY"] != "1" {
            atexit { TestDatabase.dropOwn() }
        }
    }

    /// Drops this process's databases (and any of a process gone since), waiting at most a minute:
    /// at exit, the pool's threads still run; the main thread waits for them.
    private static func dropOwn() {
        guard let server = TestTenant.postgresServer else { return }
        let done = DispatchSemaphore(value: 0)
        let own = getpid()
        Task.detached {
            _ = try? await sweep(server, keeping: { $0 != own && isRunning($0) })
            done.signal()
        }
        _ = done.wait(timeout: .now() + 60)
    }
}
