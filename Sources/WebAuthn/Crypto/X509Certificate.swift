public import FoundationEssentials

/// An X.509 certificate (RFC 5280), parsed once by OpenSSL: the fields attestation reads as plain
/// Swift values, and OpenSSL's parse itself, kept for chain verification (so a path is not parsed
/// again to be verified, nor an anchor to be put in a store).
///
/// ```
/// Certificate ::= SEQUENCE { tbsCertificate TBSCertificate, signatureAlgorithm, signatureValue }
/// TBSCertificate ::= SEQUENCE { version [0] EXPLICIT Version DEFAULT v1, serialNumber, signature,
///     issuer, validity, subject, subjectPublicKeyInfo, ..., extensions [3] EXPLICIT Extensions OPTIONAL }
/// ```
///
/// WebAuthn attestation (L3 §8.2.1, packed) reads the subject, the basic constraints, the
/// `id-fido-gen-ce-aaguid` extension and the public key of an attestation certificate, and checks
/// its chain to a trust anchor (``verifyChain(leaf:intermediates:trustAnchors:at:)``).
/// Two certificates are equal when their DER bytes are.
public struct X509Certificate: Sendable, Hashable {
    /// The certificate's DER encoding, exactly as given.
    public let derBytes: [UInt8]
    /// The X.509 version, counted from 1 (3 for a v3 certificate).
    public let version: Int
    /// The start of the validity period.
    public let notBefore: Date
    /// The end of the validity period.
    public let notAfter: Date
    /// The basic constraints' `cA` flag (RFC 5280 §4.2.1.9), or `nil` when the certificate has no
    /// basic constraints extension.
    public let isCertificateAuthority: Bool?
    /// Subject attributes by OpenSSL short name ("C", "O", "OU", "CN"); the first of each.
    let subject: [String: String]
    /// Whether the subject has no attribute at all (RFC 5280 §4.1.2.6 allows an empty subject
    /// when a subject alternative name carries the identity, as a TPM AIK certificate's does).
    let hasEmptySubject: Bool
    /// The extensions, in certificate order.
    let extensions: [Extension]
    /// The DER SubjectPublicKeyInfo.
    let subjectPublicKeyInfo: [UInt8]
    /// The subject public key as OpenSSL read it with the certificate, or `nil` for a key type
    /// COSE has no form for (``publicKey(algorithm:)`` then reports why).
    let subjectKeyParameters: COSEKey.Parameters?
    /// OpenSSL's parse of ``derBytes``, for chain verification.
    let handle: X509Handle

    /// One certificate extension (RFC 5280 §4.1): `Extension ::= SEQUENCE { extnID, critical,
    /// extnValue OCTET STRING }`.
    struct Extension: Sendable, Hashable {
        /// The extension's OID in dotted form.
        let oid: String
        let critical: Bool
        /// The contents of the `extnValue` OCTET STRING.
        let value: [UInt8]
    }

    /// Reads every `CERTIFICATE` block of PEM text (RFC 7468 §5), in order.
    ///
    /// Text outside the blocks and blocks of other types are ignored.
    ///
    /// - Parameter pem: the PEM text.
    /// - Returns: the certificates, at least one.
    /// - Throws: `WebAuthnError` with `malformed-certificate` when there is no certificate block, a
    ///   block is not closed or not base64, or a certificate does not parse.
    public static func certificates(pem: String) throws(WebAuthnError) -> [X509Certificate] {
        var certificates: [X509Certificate] = []
        var body: String?
        for rawLine in pem.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingWhitespace()
            switch (line, body) {
            case ("-----BEGIN CERTIFICATE-----", nil):
                body = ""
            case ("-----END CERTIFICATE-----", let text?):
                guard let der = Data(base64Encoded: text) else {
                    throw WebAuthnError(
                        .malformedCertificate, "PEM certificate block \(certificates.count + 1) is not base64")
                }
                certificates.append(try X509Certificate(derEncoded: der))
                body = nil
            case (_, let text?):
                body = text + line
            case (_, nil):
                continue
            }
        }
        guard body == nil else {
            throw WebAuthnError(.malformedCertificate, "PEM certificate block has no END line")
        }
        guard !certificates.isEmpty else {
            throw WebAuthnError(.malformedCertificate, "PEM text has no CERTIFICATE block")
        }
        return certificates
    }

    /// A subject attribute (RFC 5280 §4.1.2.6) as text.
    ///
    /// - Parameter shortName: the attribute's short name: "C", "O", "OU", "CN", ...
    /// - Returns: the first value of that attribute, or `nil` when the subject has none.
    public func subjectAttribute(_ shortName: String) -> String? {
        subject[shortName]
    }

    /// An extension's criticality and value.
    ///
    /// - Parameter oid: the extension's OID in dotted form ("1.3.6.1.4.1.45724.1.1.4" for
    ///   `id-fido-gen-ce-aaguid`, WebAuthn L3 §8.2.1).
    /// - Returns: the critical flag and the contents of `extnValue` (the DER of the extension's
    ///   own value), or `nil` when the certificate lacks the extension.
    public func extensionValue(oid: String) -> (critical: Bool, value: [UInt8])? {
        extensions.first(where: { $0.oid == oid }).map { ($0.critical, $0.value) }
    }

    /// `id-fido-gen-ce-aaguid` (WebAuthn L3 §8.2.1) in dotted form: the extension in which an
    /// attestation certificate names the authenticator model it vouches for.
    static let aaguidExtensionOID = "1.3.6.1.4.1.45724.1.1.4"

    /// Whether the certificate's `id-fido-gen-ce-aaguid` extension (WebAuthn L3 §8.2.1) names
    /// `aaguid`: "the value of this extension MUST be an OCTET STRING" of the AAGUID's 16 bytes.
    ///
    /// - Parameter aaguid: the AAGUID of the attested credential.
    /// - Returns: the extension's critical flag and whether it names `aaguid`, or `nil` when the
    ///   certificate lacks the extension (it then vouches for no particular model).
    public func aaguidExtension(naming aaguid: AAGUID) -> (critical: Bool, names: Bool)? {
        extensionValue(oid: Self.aaguidExtensionOID).map { ($0.critical, $0.value == [0x04, 0x10] + aaguid.bytes) }
    }

    /// The subject public key as a COSE_Key.
    ///
    /// - Parameter algorithm: the algorithm to record in the key, if known.
    /// - Returns: the key.
    /// - Throws: what ``COSEKey/init(spki:algorithm:)`` throws.
    public func publicKey(algorithm: COSEAlgorithm?) throws(WebAuthnError) -> COSEKey {
        if let subjectKeyParameters {
            // Read once with the certificate: an RSA key read again from its DER goes through
            // OpenSSL 3's decoders, which cost more than the signature it verifies.
            return try COSEKey(checking: algorithm, subjectKeyParameters)
        }
        return try COSEKey(spki: subjectPublicKeyInfo, algorithm: algorithm)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.derBytes == rhs.derBytes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(derBytes)
    }
}

extension Substring {
    /// The text without leading and trailing spaces, tabs and carriage returns.
    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
