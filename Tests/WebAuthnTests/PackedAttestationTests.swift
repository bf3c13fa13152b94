import Crypto
import SwiftASN1
import TestSupport
import Testing
import WebAuthn
import X509

/// The `packed` format's x5c path (WebAuthn L3 §8.2) and its certificate requirements (§8.2.1),
/// each broken alone with a certificate made for the test.
@Suite struct PackedAttestationTests {
    /// A registration attested with a leaf issued by `authority` with these properties, verified
    /// against `authority` as the packed trust anchor.
    static func register(
        _ authority: TestCertificateAuthority, subject: DistinguishedName? = nil, version: Certificate.Version = .v3,
        extensions: Certificate.Extensions? = nil, signer: SigningKey? = nil
    ) throws -> VerifiedRegistration {
        let leafKey = P256.Signing.PrivateKey()
        let leaf = try authority.issue(
            subject ?? AttestationCertificateProfile.packedSubject(), publicKey: .init(leafKey.publicKey),
            version: version,
            extensions: extensions
                ?? Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    try AttestationCertificateProfile.aaguidExtension(.zero)
                })
        var ceremony = try HandmadeCeremony()
        try ceremony.attestPacked(
            x5c: [TestCertificateAuthority.der(leaf)], signer: signer ?? SigningKey(leafKey))
        return try ceremony.register(RelyingParty(ids: ["example.org"], trustAnchors: [.packed: [authority.anchor]]))
    }

    @Test func aConformingCertificateIsBasicAndTrusted() throws {
        let registration = try Self.register(TestCertificateAuthority())
        #expect(registration.attestationType == .basic)
        #expect(registration.isTrusted)
        #expect(registration.trustPath.count == 1)
    }

    @Test func theLeafKeyMustSign() throws {
        #expect(throws: WebAuthnError(.badAttestationSignature, "")) {
            try Self.register(TestCertificateAuthority(), signer: SigningKey.generate(.es256))
        }
    }

    @Test func anUnknownAlgIsUnsupported() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.format = .packed
        ceremony.statement = ["alg": -999, "sig": .bytes([1])]
        #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) { try ceremony.register() }
    }

    @Test func theCertificateIsVersion3() throws {
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) {
            try Self.register(TestCertificateAuthority(), version: .v1, extensions: Certificate.Extensions())
        }
    }

    @Test(arguments: ["C", "O", "OU", "CN"])
    func theSubjectHasEveryRequiredAttribute(_ missing: String) throws {
        let subject = try AttestationCertificateProfile.packedSubject(
            country: missing == "C" ? nil : "US", organization: missing == "O" ? nil : "SoftPasskey Tests",
            unit: missing == "OU" ? nil : "Authenticator Attestation",
            commonName: missing == "CN" ? nil : "SoftPasskey Test Attestation")
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) {
            try Self.register(TestCertificateAuthority(), subject: subject)
        }
    }

    @Test func theSubjectOUIsAuthenticatorAttestation() throws {
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) {
            try Self.register(
                TestCertificateAuthority(), subject: AttestationCertificateProfile.packedSubject(unit: "Attestation"))
        }
    }

    @Test func theCertificateIsNotACA() throws {
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) {
            try Self.register(
                TestCertificateAuthority(),
                extensions: Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                })
        }
    }

    @Test func theAAGUIDExtensionIsNotCriticalAndMatches() throws {
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) {
            try Self.register(
                TestCertificateAuthority(),
                extensions: Certificate.Extensions {
                    try AttestationCertificateProfile.aaguidExtension(.zero, critical: true)
                })
        }
        #expect(throws: WebAuthnError(.attestationCertAAGUIDMismatch, "")) {
            try Self.register(
                TestCertificateAuthority(),
                extensions: Certificate.Extensions {
                    try AttestationCertificateProfile.aaguidExtension(AAGUID(bytes: [UInt8](repeating: 1, count: 16)))
                })
        }
    }

    @Test func anotherRootIsUntrusted() throws {
        let other = try TestCertificateAuthority()
        let leafKey = P256.Signing.PrivateKey()
        let leaf = try TestCertificateAuthority().issue(
            AttestationCertificateProfile.packedSubject(), publicKey: .init(leafKey.publicKey))
        var ceremony = try HandmadeCeremony()
        try ceremony.attestPacked(x5c: [TestCertificateAuthority.der(leaf)], signer: SigningKey(leafKey))
        #expect(throws: WebAuthnError(.untrustedAttestationRoot, "")) {
            try ceremony.register(RelyingParty(ids: ["example.org"], trustAnchors: [.packed: [other.anchor]]))
        }
    }
}
