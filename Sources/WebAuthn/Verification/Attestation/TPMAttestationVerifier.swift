/// The verification procedure of the `tpm` attestation statement format (WebAuthn L3 §8.3): a
/// TPM's attestation identity key certifies the credential key, an object of the TPM.
enum TPMAttestationVerifier: AttestationStatementVerifier {
    static let format = AttestationFormat.tpm

    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationVerdict {
        let reader = try AttestationStatementReader(input.statement, format: format)
        guard try reader.text("ver") == "2.0" else {
            throw WebAuthnError(.invalidAttestationStatement, "tpm ver is not 2.0")
        }
        let algorithmValue = try reader.integer("alg")
        let signature = try reader.bytes("sig")
        let certificates = try reader.certificates(of: input)
        let certInfoBytes = try reader.bytes("certInfo")
        let publicArea = try TPMTPublic(bytes: try reader.bytes("pubArea"))
        let certInfo = try TPMSAttest(bytes: certInfoBytes)
        guard let algorithm = COSEAlgorithm(rawValue: algorithmValue), let hash = MessageDigest(signing: algorithm)
        else {
            throw WebAuthnError(.unsupportedAlgorithm, "tpm alg \(algorithmValue) is not supported")
        }
        // Step 2: pubArea's key is the credential public key.
        guard publicArea.isKey(input.credentialKey) else {
            throw WebAuthnError(.invalidAttestationStatement, "the tpm pubArea key is not the credential public key")
        }
        // Step 4: certInfo is a TPM's certification …
        guard certInfo.magic == TPMSAttest.generatedValue else {
            throw WebAuthnError(.invalidAttestationStatement, "tpm certInfo magic is not TPM_GENERATED_VALUE")
        }
        guard certInfo.type == TPMSAttest.certifyType else {
            throw WebAuthnError(.invalidAttestationStatement, "tpm certInfo type is not TPM_ST_ATTEST_CERTIFY")
        }
        // … of attToBeSigned, hashed with alg's hash …
        guard certInfo.extraData == hash.hash(input.signedData) else {
            throw WebAuthnError(.invalidAttestationStatement, "tpm certInfo extraData is not the hash of attToBeSigned")
        }
        // … naming pubArea: nameAlg ‖ H_nameAlg(pubArea).
        let nameAlgorithm = [UInt8(publicArea.nameAlgorithmID >> 8), UInt8(publicArea.nameAlgorithmID & 0xFF)]
        guard certInfo.attestedName == nameAlgorithm + publicArea.nameAlgorithm.hash(publicArea.bytes) else {
            throw WebAuthnError(.invalidAttestationStatement, "tpm certInfo attested.name is not pubArea's name")
        }
        // Step 5: x5c (ECDAA is gone): the AIK signs certInfo, and its certificate meets §8.3.1.
        let aik = certificates[0]
        guard try aik.publicKey(algorithm: algorithm).isValidSignature(signature, for: certInfoBytes) else {
            throw WebAuthnError(.badAttestationSignature, "the tpm signature over certInfo does not verify with x5c[0]")
        }
        try TPMAttestationCertificate.check(aik, aaguid: input.aaguid)
        return AttestationVerdict(type: .attCA, trustPath: certificates)
    }
}
