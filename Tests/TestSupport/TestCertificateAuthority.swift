public import Crypto
public import Foundation
import PasskeyConformance
public import WebAuthn
public import X509

/// A certificate authority made for one test: a self-signed P-256 root that issues certificates
/// with whatever version, subject and extensions the test needs, so that a test can break one
/// attestation certificate requirement at a time (WebAuthn L3 §8.2.1, §8.3.1, §8.4, §8.6, §8.8).
///
/// The conformance runner's issuer with a fresh key and random serial numbers.
public struct TestCertificateAuthority: Sendable {
    private let issuer: ConformanceIssuer

    /// The root's key.
    public var key: P256.Signing.PrivateKey { issuer.key }
    /// The self-signed root certificate.
    public var certificate: Certificate { issuer.certificate }

    /// Every certificate made here is valid from 2023-11-14 to 2033-05-18.
    public static let notValidBefore = Date(timeIntervalSince1970: 1_700_000_000)
    public static let notValidAfter = Date(timeIntervalSince1970: 2_000_000_000)
    private static let validity: ConformanceIssuer.Validity = notValidBefore...notValidAfter

    /// A new root named `name`.
    public init(name: String = "SoftPasskey Test Root CA") throws {
        let subject = try DistinguishedName {
            CountryName("US")
            OrganizationName("SoftPasskey Tests")
            CommonName(name)
        }
        issuer = try ConformanceIssuer(
            subject, key: P256.Signing.PrivateKey(), serialNumber: .init(), validity: Self.validity)
    }

    /// The root as a trust anchor of ``RelyingParty``.
    public var anchor: X509Certificate {
        get throws { try X509Certificate(derEncoded: issuer.der) }
    }

    /// A certificate for `publicKey` signed by this root.
    public func issue(
        _ subject: DistinguishedName, publicKey: Certificate.PublicKey, version: Certificate.Version = .v3,
        extensions: Certificate.Extensions = Certificate.Extensions()
    ) throws -> Certificate {
        try issuer.issue(
            subject, publicKey: publicKey, version: version, serialNumber: .init(), validity: Self.validity,
            extensions: extensions)
    }

    /// A certificate's DER encoding, as `x5c` carries it.
    public static func der(_ certificate: Certificate) throws -> [UInt8] {
        try ConformanceIssuer.der(certificate)
    }
}

extension SigningKey {
    /// The same P-256 key as a WebAuthn signing key, to sign statements with a certificate's key.
    public init(_ key: P256.Signing.PrivateKey) throws {
        try self.init(rawRepresentation: Array(key.rawRepresentation), algorithm: .es256)
    }
}
