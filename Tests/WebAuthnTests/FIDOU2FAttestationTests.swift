import Crypto
import TestSupport
import Testing
import WebAuthn
import X509

/// The `fido-u2f` format (WebAuthn L3 §8.6), each step of its procedure broken alone with a
/// statement made for the test.
@Suite struct FIDOU2FAttestationTests {
    /// A U2F registration of `ceremony`'s key: `signer` signs the U2F verification data, `x5c` is sent.
    static func attest(_ ceremony: inout HandmadeCeremony, x5c: [[UInt8]], signer: SigningKey) throws {
        let key = ceremony.key.publicKey.cbor
        let point = [0x04] + (key[-2]?.bytesValue ?? []) + (key[-3]?.bytesValue ?? [])
        let data =
            [0x00] + SHA256Digest.hash(Array(ceremony.rpID.utf8)) + SHA256Digest.hash(ceremony.clientData(.create))
            + ceremony.credentialID + point
        ceremony.format = .fidoU2F
        ceremony.statement = ["sig": .bytes(try signer.signature(for: data)), "x5c": .array(x5c.map(CBOR.bytes))]
    }

    /// A registration attested by a P-256 certificate of `authority`, as U2F devices send.
    static func register(
        _ authority: TestCertificateAuthority, ceremony: HandmadeCeremony? = nil, extraCertificate: Bool = false,
        signer: SigningKey? = nil
    ) throws -> VerifiedRegistration {
        let leafKey = P256.Signing.PrivateKey()
        let leaf = try TestCertificateAuthority.der(
            authority.issue(AttestationCertificateProfile.packedSubject(), publicKey: .init(leafKey.publicKey)))
        var ceremony = try ceremony ?? HandmadeCeremony()
        try attest(
            &ceremony, x5c: extraCertificate ? [leaf, TestCertificateAuthority.der(authority.certificate)] : [leaf],
            signer: signer ?? SigningKey(leafKey))
        return try ceremony.register(RelyingParty(ids: ["example.org"], trustAnchors: [.fidoU2F: [authority.anchor]]))
    }

    @Test func aU2FRegistrationIsBasicAndTrusted() throws {
        let registration = try Self.register(TestCertificateAuthority())
        #expect(registration.format == .fidoU2F)
        #expect(registration.attestationType == .basic)
        #expect(registration.isTrusted)
    }

    /// Step 1: the statement has `sig` and `x5c`.
    @Test func theStatementIsWellFormed() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.format = .fidoU2F
        for statement: CBOR in [[:], ["sig": .bytes([1])], ["sig": .bytes([1]), "x5c": .array([])], ["x5c": 1]] {
            ceremony.statement = statement
            #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) { try ceremony.register() }
        }
    }

    /// Step 2: exactly one certificate, with a P-256 key.
    @Test func oneP256Certificate() throws {
        #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) {
            try Self.register(TestCertificateAuthority(), extraCertificate: true)
        }
        let authority = try TestCertificateAuthority()
        let leaf = try authority.issue(
            AttestationCertificateProfile.packedSubject(), publicKey: .init(P384.Signing.PrivateKey().publicKey))
        var ceremony = try HandmadeCeremony()
        try Self.attest(&ceremony, x5c: [TestCertificateAuthority.der(leaf)], signer: SigningKey.generate(.es256))
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) { try ceremony.register() }
    }

    /// Steps 3–4: the credential key is an EC2 P-256 key, to be sent as a raw U2F point.
    @Test func theCredentialKeyIsP256() throws {
        #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) {
            try Self.register(TestCertificateAuthority(), ceremony: HandmadeCeremony(.eddsa))
        }
    }

    /// Steps 5–6: the certificate's key signs the U2F verification data.
    @Test func theCertificateKeySigns() throws {
        #expect(throws: WebAuthnError(.badAttestationSignature, "")) {
            try Self.register(TestCertificateAuthority(), signer: SigningKey.generate(.es256))
        }
    }
}
