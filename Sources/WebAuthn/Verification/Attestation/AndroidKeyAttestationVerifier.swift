/// The verification procedure of the `android-key` attestation statement format (WebAuthn L3
/// §8.4): a key in Android's hardware keystore, certified with its key description.
enum AndroidKeyAttestationVerifier: AttestationStatementVerifier {
    static let format = AttestationFormat.androidKey

    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationVerdict {
        let reader = try AttestationStatementReader(input.statement, format: format)
        let algorithmValue = try reader.integer("alg")
        let signature = try reader.bytes("sig")
        let certificates = try reader.certificates(of: input)
        guard let algorithm = COSEAlgorithm(rawValue: algorithmValue), algorithm.isSignatureAlgorithm else {
            throw WebAuthnError(.unsupportedAlgorithm, "android-key alg \(algorithmValue) is not supported")
        }
        let leaf = certificates[0]
        // Step 2: sig over authenticatorData ‖ clientDataHash, by the first certificate's key.
        guard try leaf.publicKey(algorithm: algorithm).isValidSignature(signature, for: input.signedData) else {
            throw WebAuthnError(.badAttestationSignature, "the android-key signature does not verify with x5c[0]")
        }
        // Step 3: that key is the credential key.
        guard leaf.holds(input.credentialKey) else {
            throw WebAuthnError(.invalidAttestationStatement, "the android-key certificate certifies another key")
        }
        // Step 4: the key description's challenge is clientDataHash.
        guard let (_, value) = leaf.extensionValue(oid: AndroidKeyDescription.oid) else {
            throw WebAuthnError(
                .attestationCertificateRequirements, "the android-key certificate has no key description extension")
        }
        let description = try AndroidKeyDescription(derEncoded: value)
        guard description.attestationChallenge == input.clientDataHash else {
            throw WebAuthnError(
                .invalidAttestationStatement, "the android-key attestation challenge is not clientDataHash")
        }
        try checkAuthorizations(description, policy: input.policy)
        // Step 5: basic attestation, the path to Google's roots.
        return AttestationVerdict(type: .basic, trustPath: certificates)
    }

    /// Step 4's authorization lists: no key for all applications; a key generated in the
    /// keystore for signing, as the trusted environment enforces it (or the software, where the
    /// relying party's policy accepts that).
    private static func checkAuthorizations(
        _ description: AndroidKeyDescription, policy: AttestationPolicy
    ) throws(WebAuthnError) {
        let tee = description.teeEnforced
        let software = description.softwareEnforced
        guard !tee.allApplications, !software.allApplications else {
            throw WebAuthnError(.attestationCertificateRequirements, "the android key is usable by all applications")
        }
        let accepted = policy.acceptsSoftwareEnforcedAndroidKeys ? [tee, software] : [tee]
        let enforcer = policy.acceptsSoftwareEnforcedAndroidKeys ? "key description" : "teeEnforced list"
        guard accepted.contains(where: { $0.origin == AndroidKeyDescription.originGenerated }) else {
            throw WebAuthnError(
                .attestationCertificateRequirements,
                "the \(enforcer) does not say the key was generated in the keystore")
        }
        guard accepted.contains(where: { $0.purposes.contains(AndroidKeyDescription.purposeSign) }) else {
            throw WebAuthnError(.attestationCertificateRequirements, "the \(enforcer) does not allow the key to sign")
        }
    }
}
