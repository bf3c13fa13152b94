import BlockingIO
import Foundation
import PasskeyKit
import PasskeyTenant
import WebAuthn

/// How the tenant's logins grow with its users (issue 46): groups `tenant-sqlite` and
/// `tenant-postgres`, each size a tenant of that many users, each with one passkey.
///
/// The users are seeded through the tenant's bulk path (``PasskeyTenant/importUsers(_:)``, one
/// transaction per batch), not the API, and grow from one size to the next (10³ users, then 9·10³
/// more, …), so the largest size's seeding is the whole seeding. At each size, `logins` native
/// logins over HTTP (`/passkey/challenge`, then `/oauth/token` with the webauthn grant: virtual
/// users over libcurl, as `passkey-bench tenant` measures them) of users drawn at random among all,
/// `clients` at a time, give the p50, the p99 and logins per second (``UserPhase``), after a
/// warm-up of as many logins again as there are clients ×4. The tenant runs in this process,
/// served on a loopback port: on SQLite a database file in a scratch directory, on PostgreSQL a
/// database made for the run on `database`'s server and dropped after it.
struct TenantGrowth {
    /// A PostgreSQL URL whose server gets the run's database; nil: `tenant-postgres` is not measured.
    let database: String?
    /// The groups to measure: `tenant-sqlite`, `tenant-postgres`.
    let groups: [String]
    /// Logins measured at each size.
    var logins = 4000
    /// Concurrent clients (K).
    var clients = 8
    /// Users per import call (one transaction each).
    var batch = 10_000

    static let groupNames = ["tenant-sqlite", "tenant-postgres"]

    func points(sizes: [Int], progress: (String) -> Void) async throws -> [GrowthPoint] {
        var points: [GrowthPoint] = []
        let sizes = sizes.sorted()
        if groups.contains("tenant-sqlite") {
            let scratch = try ScratchDirectory("passkey-bench-growth")
            defer { scratch.remove() }
            let tenant = try await PasskeyTenant(database: scratch.path + "/tenant.sqlite")
            points += try await grow(tenant, group: "tenant-sqlite", sizes: sizes, progress: progress)
        }
        if groups.contains("tenant-postgres") {
            guard let database else {
                progress("tenant-postgres: not measured (no --db postgres://…)")
                return points
            }
            let server = try PostgresURL(database)
            let name = "passkey_growth_" + Hex.encode(SecureRandom.bytes(6))
            let url = try await server.createDatabase(named: name)
            do {
                let tenant = try await PasskeyTenant(database: url)
                do {
                    points += try await grow(tenant, group: "tenant-postgres", sizes: sizes, progress: progress)
                    await tenant.close()
                } catch {
                    await tenant.close()
                    throw error
                }
                try await server.dropDatabase(named: name)
            } catch {
                try? await server.dropDatabase(named: name)
                throw error
            }
        }
        return points
    }

    /// Seeds `tenant` up to each size in turn and measures its logins there.
    private func grow(_ tenant: PasskeyTenant, group: String, sizes: [Int], progress: (String) -> Void)
        async throws -> [GrowthPoint]
    {
        let users = GrowthUsers(rpID: tenant.configuration.relyingPartyID)
        let clock = ContinuousClock()
        var seeded = 0
        var seeding = Duration.zero
        var points: [GrowthPoint] = []
        for size in sizes {
            var keys = Duration.zero
            let began = clock.now
            for start in stride(from: seeded, to: size, by: batch) {
                var made: [ImportedUser] = []
                keys += try clock.measure {
                    made = try (start..<min(start + batch, size)).map(users.imported)
                }
                seeding += try await clock.measure { _ = try await tenant.importUsers(made) }
            }
            progress(
                "\(group): \(size) users (\(size - seeded) imported in "
                    + String(
                        format: "%.1f s, %.1f s of it making their keys", (clock.now - began).seconds, keys.seconds)
                    + "; \(String(format: "%.1f", seeding.seconds)) s of imports in all)")
            seeded = size
            let phase = try await tenant.serving { [logins, clients] endpoint in
                let connection = try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL)
                var sample: [VirtualUser] = []
                for _ in 0..<(logins + clients * 4) {
                    let device = try await users.device(Int.random(in: 0..<size))
                    sample.append(VirtualUser(tenant: connection, device: device))
                }
                let logIn: @Sendable (Int, VirtualUser) async throws -> Void = { _, user in try await user.logIn() }
                _ = try await UserPhase.run(Array(sample.prefix(clients * 4)), concurrency: clients, logIn)
                return try await UserPhase.run(Array(sample.dropFirst(clients * 4)), concurrency: clients, logIn)
            }
            progress("\(group): \(size) users: logins/s \(phase.text)")
            let backend = group == "tenant-sqlite" ? "SQLite" : "PostgreSQL"
            points += [
                GrowthPoint(
                    group: group, series: "login-p50", label: "login p50 (\(backend), K=\(clients))", size: size,
                    value: phase.p50, unit: "ms"),
                GrowthPoint(
                    group: group, series: "login-p99", label: "login p99 (\(backend), K=\(clients))", size: size,
                    value: phase.p99, unit: "ms"),
                GrowthPoint(
                    group: group, series: "logins-per-second", label: "logins/s (\(backend), K=\(clients))",
                    size: size, value: phase.perSecond, unit: "ops/s"),
                GrowthPoint(
                    group: group, series: "seed-per-user", label: "seeding (bulk import), per user (\(backend))",
                    size: size, value: seeding.seconds / Double(size) * 1_000_000, unit: "µs"),
            ]
        }
        return points
    }
}
