/// The verification procedure of the `fido-u2f` attestation statement format (WebAuthn L3 §8.6):
/// a CTAP1/U2F device's registration signature over its raw P-256 key.
enum FIDOU2FAttestationVerifier: AttestationStatementVerifier {
    static let format = AttestationFormat.fidoU2F

    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationVerdict {
        let reader = try AttestationStatementReader(input.statement, format: format)
        let signature = try reader.bytes("sig")
        // Step 2: exactly one certificate, whose key is an EC key over P-256.
        let certificates = try reader.certificates(of: input)
        guard certificates.count == 1 else {
            throw WebAuthnError(
                .invalidAttestationStatement, "fido-u2f x5c holds \(certificates.count) certificates, not 1")
        }
        let certificate = certificates[0]
        let subjectKey = try certificate.publicKey(algorithm: nil)
        guard subjectKey.keyType == .ec2, subjectKey.curve == .p256 else {
            throw WebAuthnError(
                .attestationCertificateRequirements, "the fido-u2f attestation certificate key is not EC P-256")
        }
        let certificateKey = COSEKey(algorithm: .es256, parameters: subjectKey.parameters)
        // Steps 3–4: the credential key, as U2F's uncompressed point (ANSI X9.62).
        guard case .ec2(.p256, let x, let y) = input.credentialKey.parameters, x.count == 32, y.count == 32 else {
            throw WebAuthnError(.invalidAttestationStatement, "a fido-u2f credential key is EC2 P-256")
        }
        let credentialID = input.authenticatorData.attestedCredentialData?.credentialID ?? []
        // Step 5: 0x00 ‖ rpIdHash ‖ clientDataHash ‖ credentialId ‖ publicKeyU2F.
        let verificationData =
            [0x00] + input.authenticatorData.rpIDHash + input.clientDataHash + credentialID + [0x04] + x + y
        // Step 6: ECDSA P-256 with SHA-256 by the certificate's key.
        guard try certificateKey.isValidSignature(signature, for: verificationData) else {
            throw WebAuthnError(.badAttestationSignature, "the fido-u2f signature does not verify with x5c[0]")
        }
        // Step 7: basic or AttCA; the path decides, as the relying party's anchors do.
        return AttestationVerdict(type: .basic, trustPath: certificates)
    }
}
