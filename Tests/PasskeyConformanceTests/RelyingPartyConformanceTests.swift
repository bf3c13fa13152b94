import Foundation
import PasskeyConformance
import Testing
import WebAuthn

/// The package's own ``RelyingParty``, answering the transport binding in process, passes every
/// test that applies to it.
@Suite struct RelyingPartyConformanceTests {
    static let origin = "https://example.org"

    /// The README's and the catalog's sample, run.
    @Test func everyTestThatAppliesPasses() async throws {
        // snippet.begin
        let pki = try ConformancePKI()
        let target = RelyingPartyConformanceTarget(rpID: "example.org", trusting: pki)
        let configuration = try ConformanceConfiguration(origin: "https://example.org", trustsRoot: true)
        let report = await ConformanceSuite().run(against: target, configuration: configuration, pki: pki)
        #expect(report.failed == 0, "\(report.summary)")
        // snippet.end
        let skipped = report.tests.filter { $0.outcome == .skipped }
        #expect(skipped.allSatisfy { $0.group == .metadata || $0.id == "REG-REFUSE-ALGORITHM" }, "\(skipped)")
        #expect(report.passed > 80)
    }

    /// With the runner's metadata in place of the root, the compromised and unlisted models are
    /// refused and the certified one (and every format under it) accepted.
    @Test func readingTheRunnersMetadataPassesTheMetadataGroup() async throws {
        let pki = try ConformancePKI()
        let blob = try ConformanceMetadata(pki: pki, nextUpdate: Date() + 86_400).blob()
        let metadata = try MetadataBLOB(jwt: blob, root: pki.root)
        let configuration = try ConformanceConfiguration(origin: Self.origin, usesMetadata: true)
        let report = await ConformanceSuite().run(
            against: RelyingPartyConformanceTarget(rpID: "example.org", trusting: pki, metadata: metadata),
            configuration: configuration, pki: pki)
        #expect(report.failed == 0, "\(report.summary)")
        #expect(report.tests.filter { $0.group == .metadata }.allSatisfy { $0.outcome == .passed })
    }
}
