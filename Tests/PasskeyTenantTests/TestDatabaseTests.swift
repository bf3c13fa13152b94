import Glibc
import Logging
import TestSupport
import Testing

@testable import PasskeyTenant

/// The names of the tests' PostgreSQL databases, which carry the process that made them.
@Suite struct TestDatabaseNameTests {
    @Test func aNameCarriesItsProcess() {
        #expect(TestDatabase.process(of: TestDatabase.name()) == getpid())
        #expect(TestDatabase.process(of: "passkey_test_12_ab") == 12)
        for other in ["t_12ab", "passkey_test_x_ab", "passkey_test_12", "passkey_test_0_ab", "postgres"] {
            #expect(TestDatabase.process(of: other) == nil)
        }
        #expect(TestDatabase.isRunning(getpid()))
        #expect(!TestDatabase.isRunning(Int32.max))  // above the kernel's PID_MAX_LIMIT (2^22)
    }
}

/// The sweep drops the databases of processes gone, even with a connection left open, and keeps
/// those of running processes (`PASSKEY_TEST_POSTGRES` names the server).
@Suite(.enabled(if: TestTenant.postgresServer != nil, "PASSKEY_TEST_POSTGRES names no PostgreSQL server"))
struct TestDatabaseSweepTests {
    @Test func aGoneProcessesDatabaseIsDroppedAndARunningOnesKept() async throws {
        let server = try #require(TestTenant.postgresServer)
        let admin = try PostgresURL(server)
        // First, so the process's own sweep, before its first database, is over.
        let kept = try PostgresURL(try await TestDatabase.create()).database
        let gone = TestDatabase.prefix + "\(Int32.max)_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let store = try await PostgresTenantStore(
            url: PostgresURL(try await admin.createDatabase(named: gone)), maximumConnections: 1,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))

        let dropped = try await TestDatabase.sweep(server)

        #expect(dropped.contains(gone))
        #expect(!dropped.contains(kept))
        let left = try await admin.databaseNames(startingWith: TestDatabase.prefix)
        #expect(!left.contains(gone))
        #expect(left.contains(kept))
        await store.close()
        try await admin.dropDatabase(named: kept)
    }
}
