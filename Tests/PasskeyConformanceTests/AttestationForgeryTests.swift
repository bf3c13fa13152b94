import FoundationEssentials
import PasskeyConformance
import TestSupport
import Testing
import WebAuthn

/// Every attestation format the runner forges verifies with the PKI's root as the relying party's
/// anchor (WebAuthn L3 §7.1 steps 19–24, §8), every fault that applies to it is refused with the
/// verifier's code for it, and the PKI is the same in every process given the same seed.
@Suite struct AttestationForgeryTests {
    /// The algorithms a ``HandmadeCeremony`` makes credential keys of.
    static let algorithms: [COSEAlgorithm] = [.es256, .eddsa, .rs256, .ps256]

    /// Every format with every algorithm it carries.
    static let carried = ConformanceFormat.allCases.flatMap { format in
        algorithms.filter(format.carries).map { (format, $0) }
    }

    /// Every format with every algorithm it does not carry.
    static let notCarried = ConformanceFormat.allCases.flatMap { format in
        algorithms.filter { !format.carries($0) }.map { (format, $0) }
    }

    /// Every fault with every format it applies to.
    static let faults = AttestationFault.allCases.flatMap { fault in
        ConformanceFormat.allCases.filter(fault.applies).map { (fault, $0) }
    }

    /// The code a verifier refuses `fault` in `format` with, the relying party having the PKI's root
    /// as the format's anchor.
    static func refusal(_ fault: AttestationFault, _ format: ConformanceFormat) -> WebAuthnError.Code {
        switch (fault, format) {
        case (.badSignature, .androidKey), (.badSignature, .apple): .invalidAttestationStatement  // challenge, nonce
        case (.badSignature, _): .badAttestationSignature
        case (.wrongCertificateProfile, _): .attestationCertificateRequirements
        case (.wrongAAGUID, _): .attestationCertAAGUIDMismatch
        case (.expiredChain, _), (.untrustedChain, _): .untrustedAttestationRoot
        }
    }

    /// A ceremony of a credential of `algorithm` attested in `format` by `pki`.
    static func ceremony(
        _ format: ConformanceFormat, _ algorithm: COSEAlgorithm = .es256, pki: ConformancePKI,
        fault: AttestationFault? = nil
    ) throws -> HandmadeCeremony {
        var ceremony = try HandmadeCeremony(algorithm)
        ceremony.aaguid = ConformanceAuthenticator.certified.aaguid
        (ceremony.format, ceremony.statement) = try pki.attest(
            format, authenticatorData: ceremony.authenticatorData(),
            clientDataHash: SHA256Digest.hash(ceremony.clientData(.create)), credentialKey: ceremony.key, fault: fault)
        return ceremony
    }

    /// The relying party of `example.org` with `root` as the anchor of `format`.
    static func relyingParty(_ format: ConformanceFormat, root: X509Certificate?) -> RelyingParty {
        RelyingParty(ids: ["example.org"], trustAnchors: root.map { [format.attestationFormat: [$0]] } ?? [:])
    }

    @Test(arguments: carried)
    func aForgedStatementVerifiesAndIsTrusted(_ format: ConformanceFormat, _ algorithm: COSEAlgorithm) throws {
        let pki = try ConformancePKI()
        let registration = try Self.ceremony(format, algorithm, pki: pki)
            .register(Self.relyingParty(format, root: pki.root))
        #expect(registration.format == format.attestationFormat)
        #expect(registration.attestationType == format.attestationType)
        #expect(registration.isTrusted == format.hasCertificatePath)
    }

    @Test(arguments: notCarried)
    func aFormatRefusesAKeyItCannotCarry(_ format: ConformanceFormat, _ algorithm: COSEAlgorithm) throws {
        let pki = try ConformancePKI()
        #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) { try Self.ceremony(format, algorithm, pki: pki) }
    }

    @Test(arguments: faults)
    func aFaultIsRefused(_ fault: AttestationFault, _ format: ConformanceFormat) throws {
        let pki = try ConformancePKI()
        let ceremony = try Self.ceremony(format, pki: pki, fault: fault)
        #expect(throws: WebAuthnError(Self.refusal(fault, format), "")) {
            try ceremony.register(Self.relyingParty(format, root: pki.root))
        }
    }

    /// An expired or untrusted chain is otherwise sound: only the anchor refuses it.
    @Test(arguments: faults.filter { $0.0 == .expiredChain || $0.0 == .untrustedChain })
    func aChainFaultIsRefusedOnlyByTheAnchor(_ fault: AttestationFault, _ format: ConformanceFormat) throws {
        let registration = try Self.ceremony(format, pki: ConformancePKI(), fault: fault)
            .register(Self.relyingParty(format, root: nil))
        #expect(!registration.isTrusted)
    }

    @Test func aFaultThatDoesNotApplyIsNotMade() throws {
        #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) {
            try Self.ceremony(.none, pki: ConformancePKI(), fault: .badSignature)
        }
    }

    /// Two instances with one seed have the same roots: a chain made by one verifies against the
    /// other's root, and not against another seed's.
    @Test func theSeedAloneMakesThePKI() throws {
        let one = try ConformancePKI(seed: "determinism")
        let two = try ConformancePKI(seed: "determinism")
        let other = try ConformancePKI(seed: "another seed")
        #expect(try one.root.publicKey(algorithm: nil).spki == two.root.publicKey(algorithm: nil).spki)
        #expect(try one.root.publicKey(algorithm: nil).spki != other.root.publicKey(algorithm: nil).spki)
        #expect(one.root.subjectAttribute("CN") == two.root.subjectAttribute("CN"))
        #expect(one.rootPEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        for format in ConformanceFormat.allCases where format.hasCertificatePath {
            let ceremony = try Self.ceremony(format, pki: one)
            #expect(try ceremony.register(Self.relyingParty(format, root: two.root)).isTrusted)
            #expect(throws: WebAuthnError(.untrustedAttestationRoot, "")) {
                try ceremony.register(Self.relyingParty(format, root: other.root))
            }
        }
        let signer = try one.metadataSigner()
        #expect(signer.key.publicKey == (try two.metadataSigner()).key.publicKey)
        try X509Certificate.verifyChain(
            leaf: X509Certificate(derEncoded: signer.chain[0]), intermediates: [], trustAnchors: [two.root], at: Date())
    }

    /// The metadata signer's chain ends at the root, unless it is untrusted or expired.
    @Test(arguments: [(true, false), (false, false), (true, true)])
    func theMetadataSignerChainsToTheRoot(_ trusted: Bool, _ expired: Bool) throws {
        let pki = try ConformancePKI()
        let signer = try pki.metadataSigner(trusted: trusted, expired: expired)
        let leaf = try X509Certificate(derEncoded: signer.chain[0])
        #expect(try leaf.publicKey(algorithm: nil).spki == signer.key.publicKey.spki)
        let verify = {
            try X509Certificate.verifyChain(leaf: leaf, intermediates: [], trustAnchors: [pki.root], at: Date())
        }
        if trusted && !expired {
            try verify()
        } else {
            #expect(throws: WebAuthnError(.untrustedAttestationRoot, "")) { try verify() }
        }
    }
}
