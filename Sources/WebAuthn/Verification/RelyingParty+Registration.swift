public import FoundationEssentials

extension RelyingParty {
    /// Verifies a registration (WebAuthn L3 §7.1 "Registering a New Credential").
    ///
    /// Runs every step that depends on the response: client data (type, challenge, origin,
    /// cross-origin), the attestation object, RP ID hash, UP/UV, BE/BS, the credential algorithm,
    /// the attestation statement by its format and its trust path; parsing the attested credential
    /// data already refuses a credential ID over 1023 bytes (step 25).
    /// Checking that the credential ID is not registered yet (step 26) is the caller's, since only
    /// it knows its users. The DocC article "Verification steps" maps every step to its check.
    ///
    /// - Parameters:
    ///   - clientDataJSON: `response.clientDataJSON`, the bytes as received.
    ///   - attestationObject: `response.attestationObject`.
    ///   - challenge: the challenge issued for this ceremony.
    ///   - time: the instant at which attestation certificates must be valid.
    /// - Returns: what to store about the new credential.
    /// - Throws: `WebAuthnError` whose code names the failed check.
    public func verifyRegistration(
        clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: [UInt8], at time: Date = Date()
    ) throws(WebAuthnError) -> VerifiedRegistration {
        let clientData = try checkClientData(clientDataJSON, type: .create, challenge: challenge)
        let attestation = try AttestationObject(bytes: attestationObject)
        let authenticatorData = attestation.authenticatorData
        try checkAuthenticatorData(authenticatorData, clientData: clientData)
        guard let credential = authenticatorData.attestedCredentialData else {
            throw WebAuthnError(.attestedCredentialDataMissing, "authData carries no attested credential data")
        }
        let publicKey = try credential.publicKey
        guard let algorithm = publicKey.algorithm else {
            throw WebAuthnError(.malformedCOSEKey, "the credential public key names no algorithm")
        }
        guard allowedAlgorithms.contains(algorithm) else {
            throw WebAuthnError(.algorithmNotAllowed, "\(algorithm) is not among the allowed \(allowedAlgorithms)")
        }
        let verdict = try verifyStatement(
            attestation, credentialKey: publicKey, clientDataHash: clientData.hash, at: time)
        return VerifiedRegistration(
            credentialID: credential.credentialID, credentialPublicKey: credential.credentialPublicKey,
            algorithm: algorithm, signCount: authenticatorData.signCount, aaguid: credential.aaguid,
            format: attestation.format, attestationType: verdict.type, trustPath: verdict.trustPath.certificates,
            isTrusted: verdict.isTrusted, authenticatorData: authenticatorData, clientData: clientData)
    }

    /// Verifies the attestation statement by its format (§7.1 steps 21–22).
    private func verifyStatement(
        _ attestation: AttestationObject, credentialKey: COSEKey, clientDataHash: [UInt8], at time: Date
    ) throws(WebAuthnError) -> AttestationVerdict {
        guard let verifier = Self.attestationVerifiers[attestation.format] else {
            throw WebAuthnError(
                .unsupportedAttestationFormat, "attestation format \"\(attestation.format)\" is not supported")
        }
        let verdict = try verifier.verify(
            AttestationInput(
                statement: attestation.statement, authenticatorData: attestation.authenticatorData,
                clientDataHash: clientDataHash, credentialKey: credentialKey, time: time,
                policy: attestationPolicy, trust: attestationTrust))
        let aaguid = attestation.authenticatorData.attestedCredentialData?.aaguid ?? .zero
        return try assessTrust(verdict, format: attestation.format, aaguid: aaguid, at: time)
    }

    /// Chains a certificate trust path to the trust anchors of the format and of the
    /// authenticator's metadata entry, when there are any (§7.1 steps 23–24), after refusing an
    /// authenticator the metadata says is compromised.
    private func assessTrust(
        _ verdict: AttestationVerdict, format: AttestationFormat, aaguid: AAGUID, at time: Date
    ) throws(WebAuthnError) -> AttestationVerdict {
        var anchors = trustAnchors[format] ?? []
        var anchorSet = AttestationTrust.AnchorSet(format: format, metadataEntry: nil)
        if let entry = metadata?.entry(for: aaguid) {
            if let status = entry.status, status.isCompromised {
                throw WebAuthnError(
                    .authenticatorCompromised, "FIDO metadata says \(entry.description) (\(aaguid)) is \(status)")
            }
            anchors += entry.attestationRootCertificates
            anchorSet = AttestationTrust.AnchorSet(format: format, metadataEntry: aaguid)
        }
        guard !verdict.trustPath.isEmpty, !anchors.isEmpty else {
            return verdict
        }
        try attestationTrust.verify(verdict.trustPath, anchors: anchors, from: anchorSet, at: time)
        return AttestationVerdict(type: verdict.type, trustPath: verdict.trustPath, isTrusted: true)
    }
}
