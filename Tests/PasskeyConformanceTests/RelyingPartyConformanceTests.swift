import PasskeyConformance
import Testing
import WebAuthn

/// The package's own ``RelyingParty``, answering the transport binding in process, passes every
/// test that applies to it.
@Suite struct RelyingPartyConformanceTests {
    static let origin = "https://example.org"

    /// The relying party a server built on this package would have: the runner's root trusted
    /// for every format that carries a chain.
    static func target(pki: ConformancePKI, metadata: MetadataBLOB? = nil) throws -> RelyingPartyConformanceTarget {
        let formats: [AttestationFormat] = [.packed, .tpm, .androidKey, .fidoU2F, .apple]
        let anchors = metadata == nil ? Dictionary(uniqueKeysWithValues: formats.map { ($0, [pki.root]) }) : [:]
        return RelyingPartyConformanceTarget(
            relyingParty: RelyingParty(ids: ["example.org"], trustAnchors: anchors, metadata: metadata),
            requiresTrustedAttestation: true)
    }

    @Test func everyTestThatAppliesPasses() async throws {
        let pki = try ConformancePKI()
        let configuration = try ConformanceConfiguration(origin: Self.origin, trustsRoot: true)
        let report = await ConformanceSuite().run(
            against: try Self.target(pki: pki), configuration: configuration, pki: pki, name: "RelyingParty")
        #expect(report.failed == 0, "\(report.summary)")
        let skipped = report.tests.filter { $0.outcome == .skipped }
        #expect(skipped.allSatisfy { $0.group == .metadata || $0.id == "REG-REFUSE-ALGORITHM" }, "\(skipped)")
        #expect(report.passed > 80)
    }
}
