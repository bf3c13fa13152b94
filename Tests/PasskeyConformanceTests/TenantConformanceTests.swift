import Foundation
import PasskeyConformance
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The local tenant, driven over HTTP through the endpoint map of Auth0's native passkey API
/// (`Examples/conformance/auth0-native-passkeys.json`) with the real libcurl client, passes every
/// test that applies to it.
@Suite struct TenantConformanceTests {
    static let map = Vectors.root.deletingLastPathComponent()
        .appendingPathComponent("Examples/conformance/auth0-native-passkeys.json")

    @Test func everyTestThatAppliesPasses() async throws {
        let tenant = try await TestTenant.open()
        let endpoints = try EndpointMap(json: Array(try Data(contentsOf: Self.map)))
        let report = try await TestTenant.serve(tenant) { _, baseURL in
            let target = HTTPConformanceTarget(
                server: baseURL, map: endpoints, variables: ["AUTH0_CLIENT_ID": tenant.clientID])
            return await ConformanceSuite().run(
                against: target, configuration: try ConformanceConfiguration(origin: "https://localhost"),
                pki: try ConformancePKI(), name: "local tenant")
        }
        #expect(report.failed == 0, "\(report.summary)")
        let skipped = report.tests.filter { $0.outcome == .skipped }.map(\.id)
        #expect(Set(skipped).isSuperset(of: endpoints.notApplicable.keys))
    }
}
