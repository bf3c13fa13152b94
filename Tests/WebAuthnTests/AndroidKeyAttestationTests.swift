import Crypto
import SwiftASN1
import TestSupport
import Testing
import WebAuthn
import X509

/// The `android-key` format (WebAuthn L3 §8.4), each step of its procedure broken alone with a
/// key attestation certificate made for the test.
@Suite struct AndroidKeyAttestationTests {
    /// An `AuthorizationList` holding the tags §8.4 reads.
    typealias Authorizations = AndroidAuthorizationList

    /// A registration whose certificate, issued by `authority`, certifies `certifiedKey` (by
    /// default the credential key) with `extensions` (by default a hardware key for this ceremony).
    static func register(
        _ authority: TestCertificateAuthority? = nil,
        certifiedKey: P256.Signing.PublicKey? = nil, signer: SigningKey? = nil, algorithm: Int = -7,
        policy: AttestationPolicy = .init(),
        extensions: ((_ clientDataHash: [UInt8]) throws -> Certificate.Extensions)? = nil
    ) throws -> VerifiedRegistration {
        let authority = try authority ?? TestCertificateAuthority()
        let credentialKey = P256.Signing.PrivateKey()
        var ceremony = try HandmadeCeremony()
        ceremony.key = try SigningKey(credentialKey)
        let clientDataHash = SHA256Digest.hash(ceremony.clientData(.create))
        let certificate = try authority.issue(
            try DistinguishedName { CommonName("Android Keystore Key") },
            publicKey: .init(certifiedKey ?? credentialKey.publicKey),
            extensions: try extensions?(clientDataHash)
                ?? Certificate.Extensions { try AndroidAuthorizationList.keyDescription(challenge: clientDataHash) })
        let signature = try (signer ?? ceremony.key).signature(for: ceremony.authenticatorData().bytes + clientDataHash)
        ceremony.format = .androidKey
        ceremony.statement = [
            "alg": CBOR(algorithm), "sig": .bytes(signature),
            "x5c": .array([.bytes(try TestCertificateAuthority.der(certificate))]),
        ]
        return try ceremony.register(
            RelyingParty(
                ids: ["example.org"], trustAnchors: [.androidKey: [authority.anchor]], attestationPolicy: policy))
    }

    @Test func aHardwareKeyIsBasicAndTrusted() throws {
        let registration = try Self.register()
        #expect(registration.attestationType == .basic)
        #expect(registration.isTrusted)
    }

    /// Step 1: the statement has `alg`, `sig` and `x5c`; `alg` is one this library verifies.
    @Test func theStatementIsWellFormed() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.format = .androidKey
        for statement: CBOR in [[:], ["alg": -7, "sig": .bytes([1])], ["alg": -7, "x5c": .array([])]] {
            ceremony.statement = statement
            #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) { try ceremony.register() }
        }
        #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) { try Self.register(algorithm: -999) }
    }

    /// Step 2: `sig` verifies with the certificate's key.
    @Test func theCertificateKeySigns() throws {
        #expect(throws: WebAuthnError(.badAttestationSignature, "")) {
            try Self.register(signer: SigningKey.generate(.es256))
        }
    }

    /// Step 3: the certificate certifies the credential key.
    @Test func theCertificateCertifiesTheCredentialKey() throws {
        let other = P256.Signing.PrivateKey()
        #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) {
            try Self.register(certifiedKey: other.publicKey, signer: SigningKey(other))
        }
    }

    /// Step 4: the key description's challenge is clientDataHash.
    @Test func theChallengeIsClientDataHash() throws {
        #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) {
            try Self.register { _ in
                try Certificate.Extensions { try AndroidAuthorizationList.keyDescription(challenge: [1, 2, 3]) }
            }
        }
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) {
            try Self.register { _ in Certificate.Extensions() }
        }
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) {
            try Self.register { _ in
                try Certificate.Extensions([
                    Certificate.Extension(
                        oid: [1, 3, 6, 1, 4, 1, 11129, 2, 1, 17], critical: false, value: [0x30, 0x00])
                ])
            }
        }
    }

    /// Step 4: no authorization list lets all applications use the key.
    @Test func theKeyIsNotForAllApplications() throws {
        var everyone = Authorizations()
        everyone.allApplications = true
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) {
            try Self.register { hash in
                try Certificate.Extensions {
                    try AndroidAuthorizationList.keyDescription(challenge: hash, software: everyone)
                }
            }
        }
    }

    /// Step 4: the key was generated in the keystore, for signing.
    @Test(arguments: [Authorizations(purposes: [2], origin: 1), Authorizations(purposes: [3], origin: 0)])
    func theKeyWasGeneratedToSign(_ tee: Authorizations) throws {
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) {
            try Self.register { hash in
                try Certificate.Extensions { try AndroidAuthorizationList.keyDescription(challenge: hash, tee: tee) }
            }
        }
    }

    /// Step 4: software-enforced authorizations count only where the relying party accepts them.
    @Test func softwareEnforcementIsThePolicys() throws {
        let softwareOnly: (_ hash: [UInt8]) throws -> Certificate.Extensions = { hash in
            try Certificate.Extensions {
                try AndroidAuthorizationList.keyDescription(
                    challenge: hash, software: .hardwareKey, tee: Authorizations())
            }
        }
        #expect(throws: WebAuthnError(.attestationCertificateRequirements, "")) {
            try Self.register(extensions: softwareOnly)
        }
        var policy = AttestationPolicy()
        policy.acceptsSoftwareEnforcedAndroidKeys = true
        #expect(try Self.register(policy: policy, extensions: softwareOnly).attestationType == .basic)
    }
}
