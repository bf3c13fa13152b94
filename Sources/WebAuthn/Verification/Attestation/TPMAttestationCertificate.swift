import SwiftASN1
import X509

/// The TPM attestation statement certificate requirements (WebAuthn L3 §8.3.1) of an AIK
/// certificate, read with swift-certificates.
struct TPMAttestationCertificate {
    /// `tcg-kp-AIKCertificate` (TCG EK Credential Profile §3.2.16).
    static let aikCertificateUsage = ExtendedKeyUsage.Usage(oid: [2, 23, 133, 8, 3])
    /// `tcg-at-tpmManufacturer`, `tcg-at-tpmModel`, `tcg-at-tpmVersion` (TCG EK Credential Profile §3.1.2).
    static let deviceAttributes: [ASN1ObjectIdentifier] = [
        [2, 23, 133, 2, 1], [2, 23, 133, 2, 2], [2, 23, 133, 2, 3],
    ]

    /// Checks `certificate` against §8.3.1 and, if it names one, the AAGUID of the credential.
    ///
    /// - Parameter trust: parses the certificate with swift-certificates once per relying party
    ///   (``AttestationTrust/swiftCertificate(_:)``); the checks run every time.
    /// - Throws: `attestation-certificate-requirements` naming the requirement missed;
    ///   `attestation-cert-aaguid-mismatch` for a certificate that vouches for another AAGUID.
    static func check(_ certificate: X509Certificate, aaguid: AAGUID, trust: AttestationTrust) throws(WebAuthnError) {
        func require(_ condition: Bool, _ reason: String) throws(WebAuthnError) {
            guard condition else {
                throw WebAuthnError(.attestationCertificateRequirements, "the AIK certificate \(reason)")
            }
        }
        let parsed: Certificate
        do {
            parsed = try trust.swiftCertificate(certificate)
        } catch {
            throw WebAuthnError(.malformedCertificate, "the AIK certificate does not parse: \(error)")
        }
        try require(parsed.version == .v3, "is not X.509 version 3")
        try require(parsed.subject.isEmpty, "has a subject; it must be empty")
        let names: SubjectAlternativeNames?
        let usages: ExtendedKeyUsage?
        let constraints: BasicConstraints?
        do {
            names = try parsed.extensions.subjectAlternativeNames
            usages = try parsed.extensions.extendedKeyUsage
            constraints = try parsed.extensions.basicConstraints
        } catch {
            throw WebAuthnError(
                .attestationCertificateRequirements, "the AIK certificate has a malformed extension: \(error)")
        }
        try require(names.map(namesTPMDevice) == true, "names no TPM manufacturer, model and version")
        try require(usages?.contains(aikCertificateUsage) == true, "lacks the tcg-kp-AIKCertificate usage")
        switch constraints {
        case .notCertificateAuthority: break
        case .isCertificateAuthority: try require(false, "is a CA")
        case nil: try require(false, "has no basic constraints (CA false is required)")
        }
        if let (critical, value) = certificate.extensionValue(oid: PackedAttestationVerifier.aaguidExtension) {
            try require(!critical, "marks id-fido-gen-ce-aaguid critical")
            guard value == [0x04, 0x10] + aaguid.bytes else {
                throw WebAuthnError(.attestationCertAAGUIDMismatch, "the AIK certificate vouches for another AAGUID")
            }
        }
    }

    /// Whether a directoryName of the subject alternative names carries the TPM's manufacturer,
    /// model and version, whether as one multi-valued RDN (what most TPMs send) or one RDN each.
    private static func namesTPMDevice(_ names: SubjectAlternativeNames) -> Bool {
        names.contains { name in
            guard case .directoryName(let directory) = name else { return false }
            let types = Set(directory.flatMap { $0.map(\.type) })
            return deviceAttributes.allSatisfy(types.contains)
        }
    }
}
