import Crypto
import SwiftASN1
import TestSupport
import Testing
import WebAuthn
import X509

/// The `tpm` format (WebAuthn L3 §8.3) and its AIK certificate requirements (§8.3.1), each broken
/// alone in a statement a TPM would make for a P-256 credential key.
@Suite struct TPMAttestationTests {
    /// A TPM's statement for `ceremony`'s credential, every field open to change.
    struct Statement: ValidRegistration {
        var ceremony: HandmadeCeremony
        let authority: TestCertificateAuthority
        var aikKey = P256.Signing.PrivateKey()
        var version = "2.0"
        var magic: UInt32 = 0xFF54_4347
        var type: UInt16 = 0x8017
        var extraData: [UInt8]?
        var attestedName: [UInt8]?
        var publicArea: [UInt8]?
        var certInfoSuffix: [UInt8] = []
        var aikSubject = DistinguishedName()
        var aikExtensions: Certificate.Extensions?
        var signer: SigningKey?

        init() throws {
            authority = try TestCertificateAuthority()
            ceremony = try HandmadeCeremony()
            ceremony.format = .tpm
        }

        /// `TPMT_PUBLIC` of the credential key: ECC, nameAlg SHA-256, NIST P-256.
        func eccPublicArea() throws -> [UInt8] {
            try TPMStatementParts.publicArea(of: ceremony.key.publicKey)
        }

        /// The attestation statement, signed over certInfo by the AIK (or `signer`).
        func cbor() throws -> CBOR {
            let pubArea = try publicArea ?? eccPublicArea()
            let attToBeSigned = try ceremony.authenticatorData().bytes + SHA256Digest.hash(ceremony.clientData(.create))
            let certInfo = TPMStatementParts.certInfo(
                extraData: extraData ?? SHA256Digest.hash(attToBeSigned),
                attestedName: attestedName ?? TPMStatementParts.name(of: pubArea), magic: magic, type: type,
                suffix: certInfoSuffix)
            let aik = try authority.issue(
                aikSubject, publicKey: .init(aikKey.publicKey),
                extensions: aikExtensions ?? AttestationCertificateProfile.aikExtensions())
            let signature = try (signer ?? SigningKey(aikKey)).signature(for: certInfo)
            return [
                "ver": .text(version), "alg": -7, "sig": .bytes(signature),
                "x5c": .array([.bytes(try TestCertificateAuthority.der(aik))]), "certInfo": .bytes(certInfo),
                "pubArea": .bytes(pubArea),
            ]
        }

        func register() throws -> VerifiedRegistration {
            var ceremony = ceremony
            ceremony.statement = try cbor()
            return try ceremony.register(RelyingParty(ids: ["example.org"], trustAnchors: [.tpm: [authority.anchor]]))
        }
    }

    @Test func aTPMRegistrationIsAttCAAndTrusted() throws {
        try Statement.expectTrusted(.attCA)
    }

    /// Step 1: `ver` is "2.0", and the members parse.
    @Test func theStatementIsWellFormed() throws {
        try Statement.expect(.invalidAttestationStatement) { $0.version = "1.2" }
        try Statement.expect(.invalidAttestationStatement) { $0.publicArea = Array(try $0.eccPublicArea().dropLast()) }
        try Statement.expect(.invalidAttestationStatement) { $0.publicArea = try $0.eccPublicArea() + [0] }
        try Statement.expect(.invalidAttestationStatement) { $0.certInfoSuffix = [0] }
    }

    /// Step 2: pubArea's key is the credential public key.
    @Test func thePublicAreaIsTheCredentialKey() throws {
        try Statement.expect(.invalidAttestationStatement) { statement in
            var other = statement
            other.ceremony.key = try SigningKey.generate(.es256)
            statement.publicArea = try other.eccPublicArea()
        }
    }

    /// Step 4: certInfo is a TPM-generated certification of attToBeSigned naming pubArea.
    @Test func certInfoCertifiesThisCredential() throws {
        try Statement.expect(.invalidAttestationStatement) { $0.magic = 0xFF54_4348 }
        try Statement.expect(.invalidAttestationStatement) { $0.type = 0x8018 }
        try Statement.expect(.invalidAttestationStatement) { $0.extraData = [UInt8](repeating: 1, count: 32) }
        try Statement.expect(.invalidAttestationStatement) {
            $0.attestedName = [0x00, 0x0B] + [UInt8](repeating: 1, count: 32)
        }
    }

    /// Step 5: the AIK signs certInfo.
    @Test func theAIKSigns() throws {
        try Statement.expect(.badAttestationSignature) { $0.signer = try SigningKey.generate(.es256) }
    }

    /// §8.3.1: empty subject; SAN with the TPM's manufacturer, model and version; the AIK usage; not a CA.
    @Test func theAIKCertificateMeetsItsRequirements() throws {
        try Statement.expect(.attestationCertificateRequirements) {
            $0.aikSubject = try DistinguishedName { CommonName("AIK") }
        }
        try Statement.expect(.attestationCertificateRequirements) {
            $0.aikExtensions = try AttestationCertificateProfile.aikExtensions(device: false)
        }
        try Statement.expect(.attestationCertificateRequirements) {
            $0.aikExtensions = try AttestationCertificateProfile.aikExtensions(usage: false)
        }
        try Statement.expect(.attestationCertificateRequirements) {
            $0.aikExtensions = try AttestationCertificateProfile.aikExtensions(isCA: true)
        }
        try Statement.expect(.attestationCertificateRequirements) { $0.aikExtensions = Certificate.Extensions() }
    }

    /// §8.3.1: the TPM attributes may also come one RDN each; an AAGUID extension must match.
    @Test func theAIKCertificateNamesItsDeviceEitherWayAndItsAAGUID() throws {
        var statement = try Statement()
        let manufacturer = try RelativeDistinguishedName.Attribute(type: [2, 23, 133, 2, 1], utf8String: "id:4D534654")
        let model = try RelativeDistinguishedName.Attribute(type: [2, 23, 133, 2, 2], utf8String: "SoftPasskey TPM")
        let version = try RelativeDistinguishedName.Attribute(type: [2, 23, 133, 2, 3], utf8String: "id:13")
        let separate = DistinguishedName([.init(manufacturer), .init(model), .init(version)])
        statement.aikExtensions = try Certificate.Extensions {
            Critical(SubjectAlternativeNames([.directoryName(separate)]))
            try ExtendedKeyUsage([.init(oid: [2, 23, 133, 8, 3])])
            Critical(BasicConstraints.notCertificateAuthority)
            try AttestationCertificateProfile.aaguidExtension(.zero)
        }
        #expect(try statement.register().isTrusted)
        try Statement.expect(.attestationCertAAGUIDMismatch) {
            $0.aikExtensions = try AttestationCertificateProfile.aikExtensions(
                aaguid: AAGUID(bytes: [UInt8](repeating: 1, count: 16)))
        }
    }
}
