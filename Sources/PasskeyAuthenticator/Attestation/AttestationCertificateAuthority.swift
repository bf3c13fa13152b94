import Crypto
public import FoundationEssentials
import SwiftASN1
public import WebAuthn
import X509

/// The attestation CA of a store: a self-signed P-256 root that issues batch attestation
/// certificates (``BatchAttestation``), as an authenticator vendor's CA does.
///
/// A relying party that trusts ``certificate`` (`passkey attestation-ca` prints it in PEM)
/// accepts the `packed` attestation of every authenticator whose batch certificate it issued
/// (WebAuthn L3 §8.2 verification step 2, §13.4.2 for what a batch means).
///
/// `description` names the root, never its key (STYLE §5).
public struct AttestationCertificateAuthority: Sendable, CustomStringConvertible {
    /// The root certificate, DER.
    public let certificate: [UInt8]
    /// The root's private key, which signs the batch certificates.
    public let key: SigningKey

    /// The OID of the `id-fido-gen-ce-aaguid` extension (FIDO Metadata Statement §3, WebAuthn L3
    /// §8.2.1).
    static let aaguidExtension: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]
    /// How long certificates made here are valid: twenty years from an hour ago.
    static let validity: TimeInterval = 20 * 365 * 24 * 3600

    /// Takes in a root made earlier.
    ///
    /// - Parameters:
    ///   - certificate: the root certificate, DER.
    ///   - key: its private key, a P-256 ``SigningKey``.
    /// - Throws: `WebAuthnError` with `malformed-certificate` when the certificate does not parse
    ///   or is not a CA, or `invalid-key` when `key` is not the certificate's key.
    public init(certificate: [UInt8], key: SigningKey) throws(WebAuthnError) {
        let parsed = try X509Certificate(derEncoded: certificate)
        guard parsed.isCertificateAuthority == true else {
            throw WebAuthnError(.malformedCertificate, "the attestation root is not a CA certificate")
        }
        try BatchAttestation.check(key, matches: parsed)
        self.certificate = certificate
        self.key = key
    }

    /// Makes a new root, named `commonName`, valid for twenty years.
    ///
    /// - Parameter commonName: the root's CN.
    /// - Throws: `WebAuthnError` with `crypto-failure` when the certificate cannot be made.
    public static func generate(commonName: String = "SoftPasskey Attestation Root CA", now: Date = Date())
        throws(WebAuthnError) -> AttestationCertificateAuthority
    {
        let key = P256.Signing.PrivateKey()
        let root = try making("the attestation root") {
            let subject = try DistinguishedName {
                CountryName("US")
                OrganizationName("SoftPasskey")
                CommonName(commonName)
            }
            return try Self.der(
                Certificate(
                    version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
                    notValidBefore: now - 3600, notValidAfter: now + validity, issuer: subject, subject: subject,
                    extensions: try Certificate.Extensions {
                        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    },
                    issuerPrivateKey: .init(key)))
        }
        return try AttestationCertificateAuthority(
            certificate: root, key: SigningKey(rawRepresentation: key.rawRepresentation, algorithm: .es256))
    }

    /// Issues a batch attestation certificate for authenticators of model `aaguid`, with a new
    /// P-256 key, meeting WebAuthn L3 §8.2.1: version 3; subject C, O, OU "Authenticator
    /// Attestation" and CN; basic constraints with CA false; and the non-critical
    /// `id-fido-gen-ce-aaguid` extension holding `aaguid`.
    ///
    /// - Parameters:
    ///   - aaguid: the authenticator model.
    ///   - commonName: the subject's CN.
    ///   - now: the start of the validity period, less an hour for clock skew.
    /// - Returns: the batch attestation: its key and the chain `[batch certificate, root]`.
    /// - Throws: `WebAuthnError` with `crypto-failure` when the certificate cannot be made.
    public func issueBatchAttestation(aaguid: AAGUID, commonName: String, now: Date = Date())
        throws(WebAuthnError) -> BatchAttestation
    {
        let batchKey = P256.Signing.PrivateKey()
        let root = try Self.making("the attestation root") { try Certificate(derEncoded: certificate) }
        let issuerKey = try Self.making("the attestation root's key") {
            try P256.Signing.PrivateKey(derRepresentation: key.exportedPKCS8())
        }
        let der = try Self.making("a batch certificate") {
            let subject = try DistinguishedName {
                CountryName("US")
                OrganizationName("SoftPasskey")
                OrganizationalUnitName("Authenticator Attestation")
                CommonName(commonName)
            }
            var aaguidValue = DER.Serializer()
            try aaguidValue.serialize(ASN1OctetString(contentBytes: ArraySlice(aaguid.bytes)))
            return try Self.der(
                Certificate(
                    version: .v3, serialNumber: .init(), publicKey: .init(batchKey.publicKey),
                    notValidBefore: now - 3600, notValidAfter: now + Self.validity, issuer: root.subject,
                    subject: subject,
                    extensions: try Certificate.Extensions {
                        Critical(BasicConstraints.notCertificateAuthority)
                        Critical(KeyUsage(digitalSignature: true))
                        Certificate.Extension(
                            oid: Self.aaguidExtension, critical: false, value: ArraySlice(aaguidValue.serializedBytes))
                    },
                    issuerPrivateKey: .init(issuerKey)))
        }
        return try BatchAttestation(
            certificates: [der, certificate],
            key: SigningKey(rawRepresentation: batchKey.rawRepresentation, algorithm: .es256))
    }

    /// The root in PEM (RFC 7468 §5), as a relying party's trust store takes it.
    public var pem: String { BatchAttestation.pem(certificate) }

    public var description: String { "AttestationCertificateAuthority(<root>, key: <redacted>)" }

    /// A certificate's DER encoding.
    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// Runs a swift-certificates step, reporting its failure as a `crypto` error.
    static func making<T>(_ what: String, _ body: () throws -> T) throws(WebAuthnError) -> T {
        do {
            return try body()
        } catch {
            throw WebAuthnError(.cryptoFailure, "cannot make \(what): \(error)")
        }
    }
}
