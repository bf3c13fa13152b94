import Crypto
public import FoundationEssentials
import SwiftASN1
public import WebAuthn
import X509

/// The runner's PKI, derived from `seed` alone, so that `passkey conformance run` and `passkey
/// conformance mds serve` in two processes agree on every root without sharing a file.
///
/// Every key is the P-256 scalar SHA-256(seed ‖ 0x00 ‖ label) (SEC 1 §2.3.6), one label per
/// certificate; every certificate has a fixed serial number and validity period
/// (2024-01-01 to 2044-01-01; an expired one ended 2021-01-01). Signatures are randomized, so a
/// certificate's bytes may differ between two instances with the same seed, its key and names
/// never do: a chain one instance makes verifies against another's ``root``.
///
/// Every good attestation chain is one certificate issued by ``root`` (`fido-u2f` allows no more,
/// §8.6 step 2); an untrusted one is issued by a second root made from the same seed that no
/// relying party is given.
public struct ConformancePKI: Sendable {
    /// The seed of the default PKI.
    public static let defaultSeed = "softpasskey-conformance"

    /// The certificates of the PKI, each with the label its key derives from and its serial number.
    enum Entity: String, CaseIterable {
        case root
        case otherRoot = "other-root"
        case packedBatch = "packed-batch"
        case fidoU2F = "fido-u2f"
        case fidoU2FP384 = "fido-u2f-p384"
        case tpmAIK = "tpm-aik"
        case androidKey = "android-key"
        case apple
        case metadataSigner = "metadata-signer"

        /// The serial number: the entity's place, from 1; an expired certificate's 1000 more.
        func serial(expired: Bool = false) -> Certificate.SerialNumber {
            .init((Self.allCases.firstIndex(of: self) ?? 0) + 1 + (expired ? 1000 : 0))
        }
    }

    let seed: String
    let rootIssuer: ConformanceIssuer
    /// The root no relying party is given.
    let otherIssuer: ConformanceIssuer
    /// The root every good attestation chain and the metadata signer's chain end at.
    public let root: X509Certificate

    /// The PKI of `seed`.
    ///
    /// - Parameter seed: what every key derives from; the same seed gives the same PKI.
    /// - Throws: `WebAuthnError` with `crypto-failure` when a key or a root cannot be made.
    public init(seed: String = defaultSeed) throws(WebAuthnError) {
        self.seed = seed
        let root = try Self.key(seed, .root)
        let other = try Self.key(seed, .otherRoot)
        rootIssuer = try Self.issuer("SoftPasskey Conformance Root CA", key: root, entity: .root)
        otherIssuer = try Self.issuer("SoftPasskey Conformance Untrusted Root CA", key: other, entity: .otherRoot)
        self.root = try X509Certificate(derEncoded: rootIssuer.der)
    }

    /// ``root`` in PEM (RFC 7468 §5), ending in a line feed, as a relying party's trust store takes it.
    public var rootPEM: String {
        PEMDocument(type: "CERTIFICATE", derBytes: root.derBytes).pemString + "\n"
    }

    /// The key and chain (leaf first, DER) that sign the metadata BLOB (FIDO MDS 3.0 §3.2), chaining
    /// to ``root``, or, `trusted: false`, to a root nobody was given; `expired: true` gives a leaf
    /// whose validity ended on 2021-01-01.
    ///
    /// - Parameters:
    ///   - trusted: whether the chain ends at ``root``.
    ///   - expired: whether the leaf has expired.
    /// - Returns: the leaf's ES256 key and the chain, which holds the leaf alone.
    /// - Throws: `WebAuthnError` with `crypto-failure` when the certificate cannot be made.
    public func metadataSigner(trusted: Bool = true, expired: Bool = false) throws(WebAuthnError)
        -> (key: SigningKey, chain: [[UInt8]])
    {
        let key = try Self.key(seed, .metadataSigner)
        let leaf = try forging("the metadata signer's certificate") {
            try ConformanceIssuer.der(
                (trusted ? rootIssuer : otherIssuer).issue(
                    DistinguishedName {
                        CountryName("US")
                        OrganizationName("SoftPasskey Conformance")
                        CommonName("SoftPasskey Conformance Metadata Signer")
                    }, publicKey: .init(key.publicKey), serialNumber: Entity.metadataSigner.serial(expired: expired),
                    validity: expired ? .expired : .current,
                    extensions: try Certificate.Extensions {
                        Critical(BasicConstraints.notCertificateAuthority)
                        Critical(KeyUsage(digitalSignature: true))
                    }))
        }
        return (try Self.signingKey(key), [leaf])
    }

    /// A root named `commonName` with `key`.
    private static func issuer(_ commonName: String, key: P256.Signing.PrivateKey, entity: Entity)
        throws(WebAuthnError) -> ConformanceIssuer
    {
        try forging("the root \(commonName)") {
            try ConformanceIssuer(
                DistinguishedName {
                    CountryName("US")
                    OrganizationName("SoftPasskey Conformance")
                    CommonName(commonName)
                }, key: key, serialNumber: entity.serial(), validity: .root)
        }
    }

    /// The P-256 key of `entity`: the scalar SHA-256(seed ‖ 0x00 ‖ label).
    static func key(_ seed: String, _ entity: Entity) throws(WebAuthnError) -> P256.Signing.PrivateKey {
        let scalar = SHA256Digest.hash(Array(seed.utf8) + [0] + Array(entity.rawValue.utf8))
        return try forging("the key of \(entity.rawValue)") { try P256.Signing.PrivateKey(rawRepresentation: scalar) }
    }

    /// The same P-256 key as a WebAuthn ES256 signing key.
    static func signingKey(_ key: P256.Signing.PrivateKey) throws(WebAuthnError) -> SigningKey {
        try SigningKey(rawRepresentation: key.rawRepresentation, algorithm: .es256)
    }
}

/// Runs a swift-certificates or swift-crypto step, reporting its failure as a `crypto-failure`.
func forging<T>(_ what: String, _ body: () throws -> T) throws(WebAuthnError) -> T {
    do {
        return try body()
    } catch {
        throw WebAuthnError(.cryptoFailure, "cannot make \(what): \(error)")
    }
}
