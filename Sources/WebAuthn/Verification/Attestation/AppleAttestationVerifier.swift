import SwiftASN1

/// The verification procedure of the `apple` anonymous attestation statement format (WebAuthn L3
/// §8.8): Apple's CA certifies the credential key itself, for this challenge (the nonce).
enum AppleAttestationVerifier: AttestationStatementVerifier {
    static let format = AttestationFormat.apple

    /// The extension carrying the nonce (§8.8 step 4).
    static let nonceExtension = "1.2.840.113635.100.8.2"

    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationVerdict {
        let certificates = try AttestationStatementReader(input.statement, format: format).certificates(of: input)
        let credentialCertificate = certificates[0]
        // Steps 2–4: nonce = SHA-256(authenticatorData ‖ clientDataHash) is in credCert's extension.
        guard let (_, value) = credentialCertificate.extensionValue(oid: nonceExtension) else {
            throw WebAuthnError(
                .attestationCertificateRequirements, "the apple credential certificate has no nonce extension")
        }
        guard try nonce(in: value) == SHA256Digest.hash(input.signedData) else {
            throw WebAuthnError(
                .invalidAttestationStatement, "the apple nonce is not for this authData and client data")
        }
        // Step 5: the credential public key is credCert's subject public key.
        guard credentialCertificate.holds(input.credentialKey) else {
            throw WebAuthnError(
                .invalidAttestationStatement, "the apple credential certificate certifies another key")
        }
        // Step 6: anonymization CA.
        return AttestationVerdict(type: .anonCA, trustPath: certificates)
    }

    /// The nonce of the extension value `SEQUENCE { [1] EXPLICIT OCTET STRING }`.
    static func nonce(in value: [UInt8]) throws(WebAuthnError) -> [UInt8] {
        do {
            let root = try DER.parse(value)
            return try DER.sequence(root, identifier: .sequence) { nodes in
                try DER.explicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { node in
                    Array(try ASN1OctetString(derEncoded: node).bytes)
                }
            }
        } catch {
            throw WebAuthnError(.attestationCertificateRequirements, "the apple nonce extension is malformed: \(error)")
        }
    }
}
