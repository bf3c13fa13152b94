import Crypto
import SwiftASN1
import TestSupport
import Testing
import WebAuthn
import X509

/// The `apple` anonymous format (WebAuthn L3 §8.8), each step of its procedure broken alone with a
/// credential certificate made for the test.
@Suite struct AppleAttestationTests {
    /// A registration whose credential certificate, issued by `authority`, certifies `certifiedKey`
    /// (by default the credential key) with `extensions` (by default the right nonce).
    static func register(
        _ authority: TestCertificateAuthority, certifiedKey: P256.Signing.PublicKey? = nil,
        extensions: ((HandmadeCeremony) throws -> Certificate.Extensions)? = nil
    ) throws -> VerifiedRegistration {
        let credentialKey = P256.Signing.PrivateKey()
        var ceremony = try HandmadeCeremony()
        ceremony.key = try SigningKey(credentialKey)
        let nonce = SHA256Digest.hash(
            try ceremony.authenticatorData().bytes + SHA256Digest.hash(ceremony.clientData(.create)))
        let certificate = try authority.issue(
            try DistinguishedName { CommonName("SoftPasskey Test Credential") },
            publicKey: .init(certifiedKey ?? credentialKey.publicKey),
            extensions: try extensions?(ceremony)
                ?? Certificate.Extensions { try AttestationCertificateProfile.appleNonceExtension(nonce) })
        ceremony.format = .apple
        ceremony.statement = ["x5c": .array([.bytes(try TestCertificateAuthority.der(certificate))])]
        return try ceremony.register(RelyingParty(ids: ["example.org"], trustAnchors: [.apple: [authority.anchor]]))
    }

    @Test func anAppleRegistrationIsAnonCAAndTrusted() throws {
        let registration = try Self.register(TestCertificateAuthority())
        #expect(registration.attestationType == .anonCA)
        #expect(registration.isTrusted)
    }

    /// Step 1: the statement has `x5c`.
    @Test func theStatementHasCertificates() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.format = .apple
        for statement: CBOR in [[:], ["x5c": .array([])], ["x5c": .array([.bytes([0x30, 0x00])])]] {
            ceremony.statement = statement
            #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) { try ceremony.register() }
        }
    }

    /// Steps 2–4: credCert carries the nonce of these authenticator data and client data.
    @Test func theNonceIsThisCeremonys() throws {
        #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) {
            try Self.register(TestCertificateAuthority()) { _ in
                try Certificate.Extensions {
                    try AttestationCertificateProfile.appleNonceExtension([UInt8](repeating: 7, count: 32))
                }
            }
        }
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) {
            try Self.register(TestCertificateAuthority()) { _ in Certificate.Extensions() }
        }
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) {
            try Self.register(TestCertificateAuthority()) { _ in
                try Certificate.Extensions([
                    Certificate.Extension(oid: [1, 2, 840, 113635, 100, 8, 2], critical: false, value: [0x04, 0x00])
                ])
            }
        }
    }

    /// Step 5: credCert certifies the credential public key.
    @Test func theCertificateCertifiesTheCredentialKey() throws {
        #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) {
            try Self.register(TestCertificateAuthority(), certifiedKey: P256.Signing.PrivateKey().publicKey)
        }
    }
}
