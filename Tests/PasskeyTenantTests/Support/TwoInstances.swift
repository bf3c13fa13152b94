import Foundation
import PasskeyTenant
import TestSupport

/// Two tenant values opened on one database (a SQLite file, or a fresh PostgreSQL database when
/// `PASSKEY_TEST_POSTGRES` names a server), as two instances of a deployment on one
/// database: each has its own process memory, and shares only what the store holds. They share
/// the device; `b` reads `a`'s clock unless given one of its own (an instance whose clock is off).
struct TwoInstances: Sendable {
    let a: TenantHarness
    let b: TenantHarness
    private let directory: TemporaryDirectory

    init(configuration: TenantConfiguration = TenantConfiguration(), clockOfB: TestClock? = nil) async throws {
        directory = try TemporaryDirectory(prefix: "tenant")
        let path =
            TestTenant.postgresServer == nil
            ? directory.appending("tenant.sqlite") : try await TestTenant.defaultDatabase()
        a = try await TenantHarness(configuration: configuration, database: path)
        let clock = clockOfB ?? a.clock
        b = TenantHarness(
            tenant: try await TestTenant.open(configuration: configuration, database: path, clock: clock.tenantClock),
            clock: clock, device: a.device)
    }

    /// Deletes the database file (a PostgreSQL database goes at exit: ``TestDatabase``).
    func remove() {
        directory.remove()
    }
}
