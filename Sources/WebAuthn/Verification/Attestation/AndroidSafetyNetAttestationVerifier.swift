import FoundationEssentials

/// The verification procedure of the `android-safetynet` attestation statement format (WebAuthn L3
/// §8.5): Google's SafetyNet service vouches, in a JWS, for the device and for this challenge.
enum AndroidSafetyNetAttestationVerifier: AttestationStatementVerifier {
    static let format = AttestationFormat.androidSafetyNet

    /// The SafetyNet attestation response's claims §8.5 reads.
    private struct Claims: Decodable {
        let nonce: String
        let timestampMs: Int64
        let ctsProfileMatch: Bool
    }

    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationVerdict {
        let reader = try AttestationStatementReader(input.statement, format: format)
        // Step 1: ver names the Google Play Services version; response is the JWS.
        guard !(try reader.text("ver")).isEmpty else {
            throw WebAuthnError(.invalidAttestationStatement, "android-safetynet ver is empty")
        }
        let jws = try CompactJWS(try reader.bytes("response"), code: .invalidAttestationStatement)
        let claims: Claims
        do {
            claims = try JSONDecoder().decode(Claims.self, from: Data(jws.payload))
        } catch {
            throw WebAuthnError(
                .invalidAttestationStatement, "the SafetyNet payload lacks nonce, timestampMs or ctsProfileMatch")
        }
        // Step 2: nonce = base64(SHA-256(authenticatorData ‖ clientDataHash)).
        guard claims.nonce == Data(SHA256Digest.hash(input.signedData)).base64EncodedString() else {
            throw WebAuthnError(
                .invalidAttestationStatement, "the SafetyNet nonce is not for this authData and client data")
        }
        // Step 3: the leaf of x5c is attest.android.com's, and its key signed the JWS.
        guard let leaf = jws.certificates.first else {
            throw WebAuthnError(.invalidAttestationStatement, "the SafetyNet JWS header has no x5c")
        }
        guard leaf.subjectAttribute("CN") == "attest.android.com" else {
            throw WebAuthnError(
                .attestationCertificateRequirements, "the SafetyNet certificate is not attest.android.com's")
        }
        guard try jws.isSignedByLeaf() else {
            throw WebAuthnError(.badAttestationSignature, "the SafetyNet JWS signature does not verify with x5c[0]")
        }
        // Step 4: the device passed the compatibility test suite, lately.
        guard claims.ctsProfileMatch else {
            throw WebAuthnError(.invalidAttestationStatement, "SafetyNet says ctsProfileMatch false")
        }
        let now = Int64((input.time.timeIntervalSince1970 * 1000).rounded())
        let (age, overflow) = now.subtractingReportingOverflow(claims.timestampMs)
        let policy = input.policy
        guard !overflow, Duration.milliseconds(age) <= policy.safetyNetMaximumAge + policy.safetyNetClockSkew,
            Duration.milliseconds(age) >= .zero - policy.safetyNetClockSkew
        else {
            throw WebAuthnError(
                .invalidAttestationStatement, "the SafetyNet timestampMs is outside the accepted window")
        }
        // Step 5: basic attestation, the path to Google's roots.
        return AttestationVerdict(type: .basic, trustPath: TrustPath(jws.certificates))
    }
}
