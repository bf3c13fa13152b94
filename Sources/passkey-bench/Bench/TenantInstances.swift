import Foundation
import PasskeyKit
import PasskeyTenant

/// Several tenant instances on one database, each serving HTTP on a loopback port of its own: what
/// `passkey tenant serve --db postgres://…` on N ports behind a balancer is, in one process.
///
/// Each instance is a ``PasskeyTenant`` of its own: its own store (a PostgreSQL store has its own
/// connection pool), HTTP server, attempt limiter and DPoP nonces. What they share is the
/// database (auth sessions, users, credentials, refresh tokens, the signing key and client ID) and
/// this process's threads, so on a machine of few cores the figure shows what coordinating through
/// the database costs, not how the scheduler splits the cores between processes.
struct TenantInstances {
    let tenants: [PasskeyTenant]

    /// Opens `count` instances on `database`, one after the other (the first migrates the schema and
    /// creates the client ID; the others find them).
    static func open(count: Int, database: String, configuration: TenantConfiguration) async throws
        -> TenantInstances
    {
        var tenants: [PasskeyTenant] = []
        for _ in 0..<count {
            tenants.append(try await PasskeyTenant(configuration: configuration, database: database))
        }
        return TenantInstances(tenants: tenants)
    }

    /// Serves every instance on a free loopback port while `body` runs, given their endpoints.
    func serving<Value: Sendable>(_ body: @Sendable ([TenantEndpoint]) async throws -> Value) async throws -> Value {
        try await Self.serving(tenants[...], endpoints: [], body)
    }

    private static func serving<Value: Sendable>(
        _ tenants: ArraySlice<PasskeyTenant>, endpoints: [TenantEndpoint],
        _ body: @Sendable ([TenantEndpoint]) async throws -> Value
    ) async throws -> Value {
        guard let first = tenants.first else { return try await body(endpoints) }
        return try await first.serving { endpoint in
            try await serving(tenants.dropFirst(), endpoints: endpoints + [endpoint], body)
        }
    }

    /// Closes every instance's database connections.
    func close() async {
        for tenant in tenants {
            await tenant.close()
        }
    }

    /// Logins per second over HTTP with `clients` concurrent clients spread round robin over
    /// `endpoints`: virtual users (PasskeyKit) over libcurl, as an app's users, each with a session
    /// of its own and the same device, logging in for `seconds`.
    static func loginRate(
        clientID: String, endpoints: [TenantEndpoint], device: VirtualDevice, clients: Int, seconds: Double
    ) async throws -> Double {
        let connections = try endpoints.map { try Tenant(clientID: clientID, baseURL: $0.baseURL) }
        let users = (0..<clients).map {
            VirtualUser(tenant: connections[$0 % connections.count], device: device)
        }
        return try await Throughput.concurrentRate(clients: clients, seconds: seconds) { client, _ in
            try await users[client].logIn()
        }
    }
}
