/// The verification procedure of the `packed` attestation statement format (WebAuthn L3 §8.2).
struct PackedAttestationVerifier: AttestationStatementVerifier {
    static let format = AttestationFormat.packed

    let statement: PackedAttestationStatement
    let authenticatorData: AuthenticatorData
    let clientDataHash: [UInt8]
    let credentialKey: COSEKey
    /// Parses `x5c` once per distinct chain.
    let trust: AttestationTrust

    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationVerdict {
        try PackedAttestationVerifier(
            statement: PackedAttestationStatement(cbor: input.statement),
            authenticatorData: input.authenticatorData, clientDataHash: input.clientDataHash,
            credentialKey: input.credentialKey, trust: input.trust
        ).verify()
    }

    /// Verifies `sig` over `authenticatorData ‖ clientDataHash`, with the attestation
    /// certificate's key (x5c) or the credential's own key (self attestation).
    func verify() throws(WebAuthnError) -> AttestationVerdict {
        guard let algorithm = COSEAlgorithm(rawValue: statement.algorithm), algorithm.isSignatureAlgorithm else {
            throw WebAuthnError(.unsupportedAlgorithm, "attestation algorithm \(statement.algorithm) is not supported")
        }
        let signedData = authenticatorData.bytes + clientDataHash
        return statement.certificates.isEmpty
            ? try verifySelf(algorithm, signedData) : try verifyCertificate(algorithm, signedData)
    }

    /// Self attestation: `alg` is the credential's own, and the credential key signs.
    private func verifySelf(_ algorithm: COSEAlgorithm, _ signedData: [UInt8]) throws(WebAuthnError)
        -> AttestationVerdict
    {
        guard algorithm == credentialKey.algorithm else {
            throw WebAuthnError(
                .invalidAttestationStatement, "self attestation alg \(algorithm) is not the credential's")
        }
        guard try credentialKey.isValidSignature(statement.signature, for: signedData) else {
            throw WebAuthnError(.badAttestationSignature, "the self-attestation signature does not verify")
        }
        return AttestationVerdict(type: .self)
    }

    /// Basic or AttCA attestation: the first x5c certificate's key signs, and that certificate
    /// meets §8.2.1. Chaining it to a trust anchor is the relying party's policy, done by the caller.
    private func verifyCertificate(_ algorithm: COSEAlgorithm, _ signedData: [UInt8]) throws(WebAuthnError)
        -> AttestationVerdict
    {
        let trustPath = try trust.certificates(statement.certificates) { index, error in
            error.recoded(.invalidAttestationStatement, "x5c certificate \(index)")
        }
        let leaf = trustPath[0]  // x5c is non-empty here
        guard try leaf.publicKey(algorithm: algorithm).isValidSignature(statement.signature, for: signedData) else {
            throw WebAuthnError(.badAttestationSignature, "the attestation signature does not verify with x5c[0]")
        }
        try checkCertificateRequirements(leaf)
        return AttestationVerdict(type: .basic, trustPath: trustPath)
    }

    /// Packed attestation statement certificate requirements (§8.2.1) and the AAGUID extension.
    private func checkCertificateRequirements(_ leaf: X509Certificate) throws(WebAuthnError) {
        func require(_ condition: Bool, _ reason: String) throws(WebAuthnError) {
            guard condition else { throw WebAuthnError(.attestationCertificateRequirements, reason) }
        }
        try require(leaf.version == 3, "the attestation certificate is not X.509 version 3")
        for attribute in ["C", "O", "CN"] {
            try require(
                leaf.subjectAttribute(attribute) != nil, "the attestation certificate subject has no \(attribute)")
        }
        try require(
            leaf.subjectAttribute("OU") == "Authenticator Attestation",
            "the attestation certificate subject OU is not \"Authenticator Attestation\"")
        try require(leaf.isCertificateAuthority != true, "the attestation certificate is a CA certificate")
        let aaguid = authenticatorData.attestedCredentialData?.aaguid ?? .zero  // the caller checked it is there
        if let (critical, names) = leaf.aaguidExtension(naming: aaguid) {
            try require(!critical, "the id-fido-gen-ce-aaguid extension is marked critical")
            guard names else {
                throw WebAuthnError(
                    .attestationCertAAGUIDMismatch, "the attestation certificate vouches for another AAGUID")
            }
        }
    }
}
