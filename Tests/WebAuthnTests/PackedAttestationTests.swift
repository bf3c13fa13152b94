import Crypto
import SwiftASN1
import TestSupport
import Testing
import WebAuthn
import X509

/// The `packed` format's x5c path (WebAuthn L3 §8.2) and its certificate requirements (§8.2.1),
/// each broken alone with a certificate made for the test.
@Suite struct PackedAttestationTests {
    /// The subject §8.2.1 asks for.
    static func subject(
        country: String? = "US", organization: String? = "SoftPasskey Tests",
        unit: String? = "Authenticator Attestation", commonName: String? = "SoftPasskey Test Attestation"
    ) throws -> DistinguishedName {
        var attributes: [RelativeDistinguishedName] = []
        if let country {
            attributes.append(try .init(.init(type: .RDNAttributeType.countryName, printableString: country)))
        }
        if let organization {
            attributes.append(try .init(.init(type: .RDNAttributeType.organizationName, utf8String: organization)))
        }
        if let unit {
            attributes.append(try .init(.init(type: .RDNAttributeType.organizationalUnitName, utf8String: unit)))
        }
        if let commonName {
            attributes.append(try .init(.init(type: .RDNAttributeType.commonName, utf8String: commonName)))
        }
        return DistinguishedName(attributes)
    }

    /// The `id-fido-gen-ce-aaguid` extension (§8.2.1) vouching for `aaguid`.
    static func aaguidExtension(_ aaguid: AAGUID, critical: Bool = false) throws -> Certificate.Extension {
        var serializer = DER.Serializer()
        try serializer.serialize(ASN1OctetString(contentBytes: ArraySlice(aaguid.bytes)))
        return Certificate.Extension(
            oid: [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4], critical: critical, value: ArraySlice(serializer.serializedBytes))
    }

    /// A registration attested with a leaf issued by `authority` with these properties, verified
    /// against `authority` as the packed trust anchor.
    static func register(
        _ authority: TestCertificateAuthority, subject: DistinguishedName? = nil, version: Certificate.Version = .v3,
        extensions: Certificate.Extensions? = nil, signer: SigningKey? = nil
    ) throws -> VerifiedRegistration {
        let leafKey = P256.Signing.PrivateKey()
        let leaf = try authority.issue(
            subject ?? Self.subject(), publicKey: .init(leafKey.publicKey), version: version,
            extensions: extensions
                ?? Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    try aaguidExtension(.zero)
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
        let subject = try Self.subject(
            country: missing == "C" ? nil : "US", organization: missing == "O" ? nil : "SoftPasskey Tests",
            unit: missing == "OU" ? nil : "Authenticator Attestation",
            commonName: missing == "CN" ? nil : "SoftPasskey Test Attestation")
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) {
            try Self.register(TestCertificateAuthority(), subject: subject)
        }
    }

    @Test func theSubjectOUIsAuthenticatorAttestation() throws {
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) {
            try Self.register(TestCertificateAuthority(), subject: Self.subject(unit: "Attestation"))
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
                extensions: Certificate.Extensions { try Self.aaguidExtension(.zero, critical: true) })
        }
        #expect(throws: WebAuthnError(.attestationCertAAGUIDMismatch, "")) {
            try Self.register(
                TestCertificateAuthority(),
                extensions: Certificate.Extensions {
                    try Self.aaguidExtension(AAGUID(bytes: [UInt8](repeating: 1, count: 16)))
                })
        }
    }

    @Test func anotherRootIsUntrusted() throws {
        let other = try TestCertificateAuthority()
        let leafKey = P256.Signing.PrivateKey()
        let leaf = try TestCertificateAuthority().issue(Self.subject(), publicKey: .init(leafKey.publicKey))
        var ceremony = try HandmadeCeremony()
        try ceremony.attestPacked(x5c: [TestCertificateAuthority.der(leaf)], signer: SigningKey(leafKey))
        #expect(throws: WebAuthnError(.untrustedAttestationRoot, "")) {
            try ceremony.register(RelyingParty(ids: ["example.org"], trustAnchors: [.packed: [other.anchor]]))
        }
    }
}
