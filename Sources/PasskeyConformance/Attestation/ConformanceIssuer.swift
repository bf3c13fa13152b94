package import Crypto
package import FoundationEssentials
import SwiftASN1
package import X509

/// A certificate authority of ``ConformancePKI`` (and of the tests'): a P-256 key and its
/// self-signed root, which issues certificates for the periods and serial numbers it is given
/// (RFC 5280 §4.1.2.2, §4.1.2.5).
///
/// Signatures are ECDSA's, randomized: two issuers with the same key, names, periods and serial
/// numbers make certificates whose bytes may differ, and which verify alike.
package struct ConformanceIssuer: Sendable {
    /// A certificate's validity period.
    package struct Validity: Sendable {
        package let notBefore: Date
        package let notAfter: Date

        package init(notBefore: Date, notAfter: Date) {
            self.notBefore = notBefore
            self.notAfter = notAfter
        }

        /// A root's: 2020-01-01 to 2050-01-01, so that it outlives every certificate it issues.
        static let root = Self(
            notBefore: Date(timeIntervalSince1970: 1_577_836_800), notAfter: Date(timeIntervalSince1970: 2_524_608_000))
        /// A current certificate's: 2024-01-01 to 2044-01-01.
        static let current = Self(
            notBefore: Date(timeIntervalSince1970: 1_704_067_200), notAfter: Date(timeIntervalSince1970: 2_335_219_200))
        /// An expired certificate's: 2020-01-01 to 2021-01-01.
        static let expired = Self(
            notBefore: Date(timeIntervalSince1970: 1_577_836_800), notAfter: Date(timeIntervalSince1970: 1_609_459_200))
    }

    package let key: P256.Signing.PrivateKey
    package let certificate: Certificate
    /// ``certificate``'s DER.
    package let der: [UInt8]

    /// A self-signed root: a CA whose key signs certificates (RFC 5280 §4.2.1.3, §4.2.1.9).
    package init(
        _ subject: DistinguishedName, key: P256.Signing.PrivateKey, serialNumber: Certificate.SerialNumber,
        validity: Validity
    ) throws {
        self.key = key
        certificate = try Certificate(
            version: .v3, serialNumber: serialNumber, publicKey: .init(key.publicKey),
            notValidBefore: validity.notBefore, notValidAfter: validity.notAfter, issuer: subject, subject: subject,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(key))
        der = try Self.der(certificate)
    }

    /// A certificate for `publicKey`, signed by this root.
    package func issue(
        _ subject: DistinguishedName, publicKey: Certificate.PublicKey, version: Certificate.Version = .v3,
        serialNumber: Certificate.SerialNumber, validity: Validity, extensions: Certificate.Extensions
    ) throws -> Certificate {
        try Certificate(
            version: version, serialNumber: serialNumber, publicKey: publicKey, notValidBefore: validity.notBefore,
            notValidAfter: validity.notAfter, issuer: certificate.subject, subject: subject, extensions: extensions,
            issuerPrivateKey: .init(key))
    }

    /// A certificate's DER encoding, as `x5c` carries it.
    package static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}
