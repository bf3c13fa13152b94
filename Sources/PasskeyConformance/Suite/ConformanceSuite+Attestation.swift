public import WebAuthn

extension ConformanceSuite {
    /// Each attestation format the runner signs (`ATT`), good and then with each fault its
    /// procedure must catch (WebAuthn L3 §8). A chain that ends outside the server's anchors, or
    /// that expired, is refused only by a server that was given the runner's root: those tests
    /// are skipped unless the run says so (``ConformanceConfiguration/trustsRoot``).
    public static let attestation: [ConformanceTest] = ConformanceFormat.allCases.flatMap { format in
        [
            attests(format, fault: nil, expected: .accepted,
                    title: "a credential attested with \(format.title) is accepted")
        ]
            + AttestationFault.allCases.filter { $0.applies(to: format) }.map { fault in
                attests(format, fault: fault, expected: .refused, title: "an attestation with \(format.title) \(fault.title)")
            }
    }

    /// A test that registers a credential attested in `format`, with `fault` if any.
    static func attests(
        _ format: ConformanceFormat, fault: AttestationFault?, expected: ConformanceTest.Verdict, title: String
    ) -> ConformanceTest {
        let id = (["ATT", format.rawValue] + (fault.map { [$0.rawValue] } ?? [])).joined(separator: "-").uppercased()
        let rule = fault.map { "WebAuthn L3 \(format.section), \($0.rule)" } ?? "WebAuthn L3 \(format.section), §7.1 step 22"
        return ConformanceTest(id, .attestation, expected, title, rule: rule) { run throws(ConformanceError) in
            if let fault, fault.needsTrust, !run.configuration.trustsRoot {
                throw ConformanceError(
                    .skipped, "the server was not given the runner's root (--trusts-root or --metadata)")
            }
            return try await run.register { forgery throws(ConformanceError) in
                forgery.format = format
                forgery.fault = fault
                if format == .fidoU2F { forgery.ceremony.aaguid = .zero }
            }.verdict
        }
    }
}

extension ConformanceFormat {
    /// The format's section of WebAuthn L3.
    var section: String {
        switch self {
        case .none: "§8.7"
        case .packedSelf, .packed: "§8.2"
        case .tpm: "§8.3"
        case .androidKey: "§8.4"
        case .fidoU2F: "§8.6"
        case .apple: "§8.8"
        }
    }

    /// The format's name in a title.
    var title: String {
        switch self {
        case .packedSelf: "packed self"
        case .packed: "packed (x5c)"
        default: rawValue
        }
    }
}

extension AttestationFault {
    /// Whether only a server that trusts the runner's root can tell.
    var needsTrust: Bool { self == .expiredChain || self == .untrustedChain }

    /// The fault in a title.
    var title: String {
        switch self {
        case .badSignature: "whose signature does not verify is refused"
        case .wrongCertificateProfile: "whose certificate breaks the format's requirements is refused"
        case .wrongAAGUID: "whose certificate names another AAGUID is refused"
        case .expiredChain: "whose certificate expired is refused"
        case .untrustedChain: "whose chain ends at an unknown root is refused"
        }
    }

    /// The rule that catches the fault.
    var rule: String {
        switch self {
        case .badSignature: "§7.1 step 22"
        case .wrongCertificateProfile: "§7.1 step 22 (the format's certificate requirements)"
        case .wrongAAGUID: "§7.1 step 22 (id-fido-gen-ce-aaguid)"
        case .expiredChain, .untrustedChain: "§7.1 steps 23–24"
        }
    }
}
