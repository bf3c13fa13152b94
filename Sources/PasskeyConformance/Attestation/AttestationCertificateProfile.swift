import SwiftASN1
package import WebAuthn
package import X509

/// The names and extensions the attestation formats ask of their certificates (WebAuthn L3
/// §8.2.1, §8.3.1, §8.4, §8.8), each with the knob a test turns to break one requirement.
package enum AttestationCertificateProfile {
    /// `id-fido-gen-ce-aaguid` (FIDO Metadata Statement §3, §8.2.1).
    static let aaguidOID: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]
    /// Apple's nonce extension (§8.8 step 4).
    static let appleNonceOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 2]
    /// `tcg-kp-AIKCertificate` (TCG EK Credential Profile §3.2.16).
    static let aikUsageOID: ASN1ObjectIdentifier = [2, 23, 133, 8, 3]

    /// The subject §8.2.1 asks of a `packed` attestation certificate: C, O, OU "Authenticator
    /// Attestation" and CN; an attribute given `nil` is left out.
    package static func packedSubject(
        country: String? = "US", organization: String? = "SoftPasskey Conformance",
        unit: String? = "Authenticator Attestation", commonName: String? = "SoftPasskey Conformance Attestation"
    ) throws -> DistinguishedName {
        var attributes: [RelativeDistinguishedName] = []
        if let country {
            attributes.append(try .init(.init(type: .RDNAttributeType.countryName, printableString: country)))
        }
        if let organization {
            attributes.append(try .init(.init(type: .RDNAttributeType.organizationName, utf8String: organization)))
        }
        if let unit {
            attributes.append(try .init(.init(type: .RDNAttributeType.organizationalUnitName, utf8String: unit)))
        }
        if let commonName {
            attributes.append(try .init(.init(type: .RDNAttributeType.commonName, utf8String: commonName)))
        }
        return DistinguishedName(attributes)
    }

    /// The `id-fido-gen-ce-aaguid` extension vouching for `aaguid`: `OCTET STRING` of its 16 bytes,
    /// not critical (§8.2.1).
    package static func aaguidExtension(_ aaguid: AAGUID, critical: Bool = false) throws -> Certificate.Extension {
        var serializer = DER.Serializer()
        try serializer.serialize(ASN1OctetString(contentBytes: ArraySlice(aaguid.bytes)))
        return Certificate.Extension(oid: aaguidOID, critical: critical, value: ArraySlice(serializer.serializedBytes))
    }

    /// Apple's nonce extension, `SEQUENCE { [1] EXPLICIT OCTET STRING nonce }` (§8.8 step 4).
    package static func appleNonceExtension(_ nonce: [UInt8]) throws -> Certificate.Extension {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { sequence in
            try sequence.serialize(explicitlyTaggedWithTagNumber: 1, tagClass: .contextSpecific) { tagged in
                try tagged.serialize(ASN1OctetString(contentBytes: ArraySlice(nonce)))
            }
        }
        return Certificate.Extension(
            oid: appleNonceOID, critical: false, value: ArraySlice(serializer.serializedBytes))
    }

    /// The extensions §8.3.1 asks of an AIK certificate: a critical subject alternative name with
    /// the TPM's manufacturer, model and version in one RDN (TCG EK Credential Profile §3.1.2), the
    /// AIK usage, CA false, and the AAGUID if one is given; or one that lacks the device names, the
    /// usage, or says it is a CA. The manufacturer is a TCG-registered vendor ID (`MSFT`, as
    /// Windows' firmware-less TPM reports), since verifiers check it against the registry.
    package static func aikExtensions(
        device: Bool = true, usage: Bool = true, isCA: Bool = false, aaguid: AAGUID? = nil
    ) throws -> Certificate.Extensions {
        let attributes = try RelativeDistinguishedName([
            .init(type: [2, 23, 133, 2, 1], utf8String: "id:4D534654"),
            .init(type: [2, 23, 133, 2, 2], utf8String: "SoftPasskey TPM"),
            .init(type: [2, 23, 133, 2, 3], utf8String: "id:13"),
        ])
        let name: GeneralName = device ? .directoryName(DistinguishedName([attributes])) : .dnsName("tpm.example")
        return try Certificate.Extensions {
            Critical(SubjectAlternativeNames([name]))
            if usage { try ExtendedKeyUsage([.init(oid: aikUsageOID)]) }
            if isCA {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            } else {
                Critical(BasicConstraints.notCertificateAuthority)
            }
            if let aaguid { try aaguidExtension(aaguid) }
        }
    }
}
