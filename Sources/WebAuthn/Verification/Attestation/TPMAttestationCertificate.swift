import SwiftASN1
import X509

/// The TPM attestation statement certificate requirements (WebAuthn L3 §8.3.1) of an AIK
/// certificate.
///
/// The certificate is the one OpenSSL parsed (``X509Certificate``); the three extensions whose
/// contents the requirements look into (subject alternative names, extended key usage, basic
/// constraints) are decoded from its extension values by swift-certificates' extension types,
/// the decoders a whole swift-certificates parse would use, with the same checks on the
/// extension set (no OID twice, at most 32).
struct TPMAttestationCertificate {
    /// `tcg-kp-AIKCertificate` (TCG EK Credential Profile §3.2.16).
    static let aikCertificateUsage = ExtendedKeyUsage.Usage(oid: [2, 23, 133, 8, 3])
    /// `tcg-at-tpmManufacturer`, `tcg-at-tpmModel`, `tcg-at-tpmVersion` (TCG EK Credential Profile §3.1.2).
    static let deviceAttributes: [ASN1ObjectIdentifier] = [
        [2, 23, 133, 2, 1], [2, 23, 133, 2, 2], [2, 23, 133, 2, 3],
    ]
    /// The extensions the requirements read, by their OID in dotted form (RFC 5280 §4.2.1).
    private static let readExtensions: [String: ASN1ObjectIdentifier] = [
        "2.5.29.17": .X509ExtensionID.subjectAlternativeName,
        "2.5.29.37": .X509ExtensionID.extendedKeyUsage,
        "2.5.29.19": .X509ExtensionID.basicConstraints,
    ]
    /// The most extensions swift-certificates accepts in a certificate.
    private static let maximumExtensions = 32

    /// Checks `certificate` against §8.3.1 and, if it names one, the AAGUID of the credential.
    ///
    /// - Throws: `malformed-certificate` for an extension set a certificate may not have;
    ///   `attestation-certificate-requirements` naming the requirement missed;
    ///   `attestation-cert-aaguid-mismatch` for a certificate that vouches for another AAGUID.
    static func check(_ certificate: X509Certificate, aaguid: AAGUID) throws(WebAuthnError) {
        func require(_ condition: Bool, _ reason: String) throws(WebAuthnError) {
            guard condition else {
                throw WebAuthnError(.attestationCertificateRequirements, "the AIK certificate \(reason)")
            }
        }
        let extensions = try read(certificate)
        try require(certificate.version == 3, "is not X.509 version 3")
        try require(certificate.hasEmptySubject, "has a subject; it must be empty")
        let names: SubjectAlternativeNames?
        let usages: ExtendedKeyUsage?
        let constraints: BasicConstraints?
        do {
            names = try extensions.subjectAlternativeNames
            usages = try extensions.extendedKeyUsage
            constraints = try extensions.basicConstraints
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
        if let (critical, names) = certificate.aaguidExtension(naming: aaguid) {
            try require(!critical, "marks id-fido-gen-ce-aaguid critical")
            guard names else {
                throw WebAuthnError(.attestationCertAAGUIDMismatch, "the AIK certificate vouches for another AAGUID")
            }
        }
    }

    /// The extensions the requirements read, undecoded, after the checks swift-certificates
    /// makes of a certificate's extension set (RFC 5280 §4.2: "A certificate MUST NOT include
    /// more than one instance of a particular extension").
    private static func read(_ certificate: X509Certificate) throws(WebAuthnError) -> Certificate.Extensions {
        let all = certificate.extensions
        guard all.count <= maximumExtensions, Set(all.map(\.oid)).count == all.count else {
            throw WebAuthnError(
                .malformedCertificate,
                "the AIK certificate does not parse: more than \(maximumExtensions) "
                    + "extensions, or one extension twice")
        }
        let read = all.compactMap { (item) -> Certificate.Extension? in
            readExtensions[item.oid].map {
                Certificate.Extension(oid: $0, critical: item.critical, value: item.value[...])
            }
        }
        // `init` throws only for an OID twice or too many extensions, excluded above.
        guard let extensions = try? Certificate.Extensions(read) else {
            throw WebAuthnError(.malformedCertificate, "the AIK certificate does not parse")
        }
        return extensions
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
