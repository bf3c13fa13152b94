import Crypto
public import WebAuthn
import X509

extension ConformancePKI {
    /// `format`'s attestation statement for a new credential (WebAuthn L3 §8), made as the
    /// format's authenticators make it, with `fault` made in it if one is given.
    ///
    /// Every certificate path is one certificate issued by ``root`` (by a root nobody was given for
    /// ``AttestationFault/untrustedChain``; expired for ``AttestationFault/expiredChain``). A
    /// certificate that certifies the credential key (`android-key`, `apple`) is made for this
    /// credential; every other leaf has the PKI's own key.
    ///
    /// - Parameters:
    ///   - format: the statement's format.
    ///   - authenticatorData: the new credential's authenticator data, whose AAGUID is the one
    ///     certificates vouch for.
    ///   - clientDataHash: SHA-256 of the client data sent.
    ///   - credentialKey: the credential's key, which self attestation signs with and which
    ///     `tpm`, `android-key` and `apple` certify.
    ///   - fault: what to break, one of those that ``AttestationFault/applies(to:)`` `format`.
    /// - Returns: the attestation object's `fmt` and `attStmt`.
    /// - Throws: `WebAuthnError` with `unsupported-algorithm` when `format` cannot carry the
    ///   credential key's algorithm (``ConformanceFormat/carries(_:)``), `invalid-attestation-statement`
    ///   for a fault that does not apply to `format`, `crypto-failure` when a certificate cannot be
    ///   made.
    public func attest(
        _ format: ConformanceFormat, authenticatorData: AuthenticatorData, clientDataHash: [UInt8],
        credentialKey: SigningKey, fault: AttestationFault? = nil
    ) throws(WebAuthnError) -> (format: AttestationFormat, statement: CBOR) {
        guard format.carries(credentialKey.algorithm) else {
            throw WebAuthnError(
                .unsupportedAlgorithm, "\(format.rawValue) attestation cannot carry a \(credentialKey.algorithm) key")
        }
        if let fault, !fault.applies(to: format) {
            throw WebAuthnError(
                .invalidAttestationStatement, "a \(format.rawValue) statement cannot have the fault \(fault.rawValue)")
        }
        let forgery = Forgery(
            authenticatorData: authenticatorData, clientDataHash: clientDataHash, credentialKey: credentialKey,
            fault: fault)
        let statement: CBOR =
            switch format {
            case .none: [:]
            case .packedSelf:
                PackedAttestationStatement(
                    algorithm: credentialKey.algorithm, signature: try forgery.sign(credentialKey, forgery.signedData)
                ).cbor
            case .packed: try packed(forgery)
            case .fidoU2F: try fidoU2F(forgery)
            case .tpm: try tpm(forgery)
            case .androidKey: try androidKey(forgery)
            case .apple: try apple(forgery)
            }
        return (format.attestationFormat, statement)
    }

    /// What one statement is made of.
    struct Forgery {
        let authenticatorData: AuthenticatorData
        let clientDataHash: [UInt8]
        let credentialKey: SigningKey
        let fault: AttestationFault?

        /// `authenticatorData ‖ clientDataHash` (§6.5.5, attToBeSigned).
        var signedData: [UInt8] { authenticatorData.bytes + clientDataHash }

        /// The AAGUID a certificate vouches for: authenticator data's, or, for
        /// ``AttestationFault/wrongAAGUID``, its complement.
        var certifiedAAGUID: AAGUID {
            get throws(WebAuthnError) {
                let aaguid = authenticatorData.attestedCredentialData?.aaguid ?? .zero
                return fault == .wrongAAGUID ? try AAGUID(bytes: aaguid.bytes.map { ~$0 }) : aaguid
            }
        }

        /// `key`'s signature over `message`, or, for ``AttestationFault/badSignature``, over
        /// `message` with one byte more.
        func sign(_ key: SigningKey, _ message: [UInt8]) throws(WebAuthnError) -> [UInt8] {
            try key.signature(for: fault == .badSignature ? message + [0] : message)
        }
    }

    /// A leaf for `publicKey` with `extensions`, issued by ``root``, or as `fault` asks by the
    /// untrusted root or expired: its DER.
    func leaf(
        _ entity: Entity, _ subject: DistinguishedName, publicKey: Certificate.PublicKey,
        extensions: Certificate.Extensions, fault: AttestationFault?
    ) throws -> [UInt8] {
        let expired = fault == .expiredChain
        return try ConformanceIssuer.der(
            (fault == .untrustedChain ? otherIssuer : rootIssuer).issue(
                subject, publicKey: publicKey, serialNumber: entity.serial(expired: expired),
                validity: expired ? .expired : .current, extensions: extensions))
    }

    /// `packed` with a batch certificate (§8.2): the batch key signs attToBeSigned; the
    /// certificate meets §8.2.1 (``AttestationFault/wrongCertificateProfile``: its subject has no
    /// OU) and vouches for the AAGUID.
    private func packed(_ forgery: Forgery) throws(WebAuthnError) -> CBOR {
        let key = try Self.key(seed, .packedBatch)
        let aaguid = try forgery.certifiedAAGUID
        let certificate = try forging("the packed batch certificate") {
            try leaf(
                .packedBatch,
                AttestationCertificateProfile.packedSubject(
                    unit: forgery.fault == .wrongCertificateProfile ? nil : "Authenticator Attestation"),
                publicKey: .init(key.publicKey),
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try AttestationCertificateProfile.aaguidExtension(aaguid)
                }, fault: forgery.fault)
        }
        let signer = try Self.signingKey(key)
        return PackedAttestationStatement(
            algorithm: .es256, signature: try forgery.sign(signer, forgery.signedData), certificates: [certificate]
        ).cbor
    }

    /// `fido-u2f` (§8.6): the certificate's P-256 key signs `0x00 ‖ rpIdHash ‖ clientDataHash ‖
    /// credentialId ‖ publicKeyU2F` (``AttestationFault/wrongCertificateProfile``: a P-384 key
    /// signs, and the certificate holds it).
    private func fidoU2F(_ forgery: Forgery) throws(WebAuthnError) -> CBOR {
        let data = try Self.u2fVerificationData(
            forgery.authenticatorData, clientDataHash: forgery.clientDataHash, credentialKey: forgery.credentialKey.publicKey)
        let wrongKey = forgery.fault == .wrongCertificateProfile
        let p256 = try Self.key(seed, .fidoU2F)
        let p384 = try Self.p384Key(seed, .fidoU2FP384)
        let certificate = try forging("the fido-u2f certificate") {
            try leaf(
                wrongKey ? .fidoU2FP384 : .fidoU2F,
                AttestationCertificateProfile.packedSubject(commonName: "SoftPasskey Conformance U2F"),
                publicKey: wrongKey ? .init(p384.publicKey) : .init(p256.publicKey),
                extensions: try Certificate.Extensions { Critical(BasicConstraints.notCertificateAuthority) },
                fault: forgery.fault)
        }
        let signature: [UInt8]
        if wrongKey {
            signature = try forging("the P-384 signature") { Array(try p384.signature(for: data).derRepresentation) }
        } else {
            signature = try forgery.sign(Self.signingKey(p256), data)
        }
        return ["sig": .bytes(signature), "x5c": [.bytes(certificate)]]
    }

    /// U2F's registration verification data (§8.6 step 5, FIDO U2F Raw Message Formats §4.3):
    /// `0x00 ‖ rpIdHash ‖ clientDataHash ‖ credentialId ‖ 0x04 ‖ x ‖ y`.
    ///
    /// - Throws: `WebAuthnError` with `unsupported-algorithm` when the key is not an EC2 P-256 key.
    package static func u2fVerificationData(
        _ authenticatorData: AuthenticatorData, clientDataHash: [UInt8], credentialKey: COSEKey
    ) throws(WebAuthnError) -> [UInt8] {
        guard case .ec2(.p256, let x, let y) = credentialKey.parameters else {
            throw WebAuthnError(.unsupportedAlgorithm, "a fido-u2f credential key is an EC2 P-256 key")
        }
        let credentialID = authenticatorData.attestedCredentialData?.credentialID ?? []
        return [0x00] + authenticatorData.rpIDHash + clientDataHash + credentialID + [0x04] + x + y
    }

    /// The P-384 key of `entity`: the scalar SHA-384(seed ‖ 0x00 ‖ label).
    static func p384Key(_ seed: String, _ entity: Entity) throws(WebAuthnError) -> P384.Signing.PrivateKey {
        let scalar = SHA384.hash(data: Array(seed.utf8) + [0] + Array(entity.rawValue.utf8))
        return try forging("the key of \(entity.rawValue)") {
            try P384.Signing.PrivateKey(rawRepresentation: Array(scalar))
        }
    }
}
