public import Crypto
public import Foundation
import SwiftASN1
public import WebAuthn
public import X509

/// A certificate authority made for one test: a self-signed P-256 root that issues certificates
/// with whatever version, subject and extensions the test needs, so that a test can break one
/// attestation certificate requirement at a time (WebAuthn L3 §8.2.1, §8.3.1, §8.4, §8.6, §8.8).
public struct TestCertificateAuthority: Sendable {
    /// The root's key.
    public let key: P256.Signing.PrivateKey
    /// The self-signed root certificate.
    public let certificate: Certificate

    /// Every certificate made here is valid from 2023-11-14 to 2033-05-18.
    public static let notValidBefore = Date(timeIntervalSince1970: 1_700_000_000)
    public static let notValidAfter = Date(timeIntervalSince1970: 2_000_000_000)

    /// A new root named `name`.
    public init(name: String = "SoftPasskey Test Root CA") throws {
        key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName {
            CountryName("US")
            OrganizationName("SoftPasskey Tests")
            CommonName(name)
        }
        certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: Self.notValidBefore, notValidAfter: Self.notValidAfter, issuer: subject, subject: subject,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(key))
    }

    /// The root as a trust anchor of ``RelyingParty``.
    public var anchor: X509Certificate {
        get throws { try X509Certificate(derEncoded: Self.der(certificate)) }
    }

    /// A certificate for `publicKey` signed by this root.
    public func issue(
        _ subject: DistinguishedName, publicKey: Certificate.PublicKey, version: Certificate.Version = .v3,
        extensions: Certificate.Extensions = Certificate.Extensions()
    ) throws -> Certificate {
        try Certificate(
            version: version, serialNumber: .init(), publicKey: publicKey, notValidBefore: Self.notValidBefore,
            notValidAfter: Self.notValidAfter, issuer: certificate.subject, subject: subject, extensions: extensions,
            issuerPrivateKey: .init(key))
    }

    /// A certificate's DER encoding, as `x5c` carries it.
    public static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}

extension SigningKey {
    /// The same P-256 key as a WebAuthn signing key, to sign statements with a certificate's key.
    public init(_ key: P256.Signing.PrivateKey) throws {
        try self.init(rawRepresentation: Array(key.rawRepresentation), algorithm: .es256)
    }
}
