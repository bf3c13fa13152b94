public import WebAuthn

extension ConformanceSuite {
    /// Authenticators the runner's metadata service lists as compromised, or does not list
    /// (`MDS`): a server that reads it must refuse their attestations (WebAuthn L3 §7.1 steps
    /// 23–24, FIDO MDS 3.0 §3.1.4). Skipped unless the run says the server reads the runner's
    /// metadata (``ConformanceConfiguration/usesMetadata``).
    public static let metadata: [ConformanceTest] = ConformanceAuthenticator.allCases.map { model in
        let expected: ConformanceTest.Verdict = model == .certified ? .accepted : .refused
        let id = "MDS-\(model.rawValue.uppercased())"
        let title =
            switch model {
            case .certified: "a FIDO_CERTIFIED model's packed attestation is accepted"
            case .unlisted: "a model metadata does not list is refused"
            default: "a model whose status is \(model.status?.rawValue ?? "") is refused"
            }
        return ConformanceTest(id, .metadata, expected, title, rule: "WebAuthn L3 §7.1 steps 23–24; FIDO MDS 3.0 §3.1.4") {
            run throws(ConformanceError) in
            guard run.configuration.usesMetadata else {
                throw ConformanceError(.skipped, "the server was not told about the runner's metadata (--metadata)")
            }
            return try await run.register { forgery throws(ConformanceError) in
                forgery.format = .packed
                forgery.ceremony.aaguid = model.aaguid
            }.verdict
        }
    }
}
