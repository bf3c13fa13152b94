import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import TestSupport
import Testing

// A's Management API, read in process (apart from ``UpstreamPair``: its HTTP types are HTTPTypes',
// not Auth0Passkeys').
extension UpstreamPair {
    /// A's users as its Management API lists them at `path` (all of them by default).
    func aUsers(path: String = "/api/v2/users") async throws -> [ManagedUserSummary] {
        let harness = TenantHarness(tenant: tenants.a, clock: TestClock(), device: device)
        return try await harness.router { http in
            let token = try await harness.managementToken(http)
            let result = try await http.send(.get, path, bearer: token)
            #expect(result.status == .ok, "\(result.text)")
            return try result.decode([ManagedUserSummary].self)
        }
    }
}

/// The members of a Management API user the upstream tests read.
struct ManagedUserSummary: Sendable, Decodable {
    struct Identity: Sendable, Decodable, Equatable {
        var provider: String
        var connection: String
        var user_id: String
        var isSocial: Bool
    }

    var user_id: String
    var email: String?
    var identities: [Identity]
}
