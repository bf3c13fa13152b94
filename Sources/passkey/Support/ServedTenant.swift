import Foundation
import PasskeyTenant

/// A tenant served over HTTP on a free loopback port from inside this process: what
/// `passkey demo` and the benchmarks talk to with the real libcurl client.
struct ServedTenant {
    let tenant: PasskeyTenant
    let endpoint: TenantEndpoint
    private let server: Task<Void, any Error>

    /// Starts serving `tenant` and returns once it listens.
    ///
    /// - Throws: when the server stopped before it listened.
    static func start(_ tenant: PasskeyTenant) async throws -> ServedTenant {
        let (started, continuation) = AsyncStream.makeStream(of: TenantEndpoint.self)
        let server = Task {
            defer { continuation.finish() }
            try await tenant.run(port: 0) { continuation.yield($0) }
        }
        var endpoints = started.makeAsyncIterator()
        guard let endpoint = await endpoints.next() else {
            _ = try await server.value
            throw CLIError.unrecognized("the tenant stopped before it listened")
        }
        return ServedTenant(tenant: tenant, endpoint: endpoint, server: server)
    }

    /// Waits until the server stops (on SIGINT or SIGTERM).
    func wait() async throws {
        try await server.value
    }

    /// Stops the server and waits for it.
    func stop() async {
        server.cancel()
        _ = try? await server.value
    }
}
