import Auth0Passkeys
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
        // The suite sends dozens of refused ceremonies from one address by design, and a whole
        // `swift test` beside it may slow a call past the default 10 seconds.
        var configuration = TenantConfiguration()
        configuration.attemptLimits = AttemptLimits(perUser: .max, perAddress: .max)
        let tenant = try await TestTenant.open(configuration: configuration)
        let endpoints = try EndpointMap(json: Array(try Data(contentsOf: Self.map)))
        let report = try await TestTenant.serve(tenant) { _, baseURL in
            let target = HTTPConformanceTarget(
                server: baseURL, map: endpoints, variables: ["AUTH0_CLIENT_ID": tenant.clientID],
                transport: CurlTransport(configuration: .init(timeout: .seconds(120))))
            return await ConformanceSuite().run(
                against: target, configuration: try ConformanceConfiguration(origin: "https://localhost"),
                pki: try ConformancePKI(), name: "local tenant")
        }
        #expect(report.failed == 0, "\(report.summary)")
        let skipped = report.tests.filter { $0.outcome == .skipped }.map(\.id)
        #expect(Set(skipped).isSuperset(of: endpoints.notApplicable.keys))
    }
}
