import SwiftASN1
public import WebAuthn

/// A batch attestation: the key an authenticator model signs `packed` attestation statements
/// with, and its certificate chain, leaf first, as `x5c` carries it (WebAuthn L3 §8.2).
///
/// Made by an ``AttestationCertificateAuthority``, or taken from a vendor's certificate and key.
/// `description` names the chain's length, never the key (STYLE §5).
public struct BatchAttestation: Sendable, CustomStringConvertible {
    /// The chain, leaf (the batch certificate) first, DER.
    public let certificates: [[UInt8]]
    /// The batch certificate's private key.
    public let key: SigningKey

    /// Takes a chain and its leaf's private key.
    ///
    /// - Parameters:
    ///   - certificates: the chain, leaf first; every certificate DER.
    ///   - key: the leaf's private key.
    /// - Throws: `WebAuthnError` with `malformed-certificate` when the chain is empty or a
    ///   certificate does not parse, or `invalid-key` when `key` is not the leaf's key.
    public init(certificates: [[UInt8]], key: SigningKey) throws(WebAuthnError) {
        guard let leaf = certificates.first else {
            throw WebAuthnError(.malformedCertificate, "an attestation chain holds at least its leaf certificate")
        }
        for certificate in certificates.dropFirst() {
            _ = try X509Certificate(derEncoded: certificate)
        }
        try Self.check(key, matches: X509Certificate(derEncoded: leaf))
        self.certificates = certificates
        self.key = key
    }

    /// Takes a chain and key a store checked when it kept them, and whose sealing binds the key to
    /// the leaf, without parsing them again.
    init(checked certificates: [[UInt8]], key: SigningKey) {
        self.certificates = certificates
        self.key = key
    }

    /// Signs a `packed` attestation statement with the batch key (WebAuthn L3 §8.2 signing
    /// procedure: the signature over `authenticatorData ‖ clientDataHash`, and `x5c`).
    ///
    /// - Parameters:
    ///   - authenticatorData: the new credential's authenticator data.
    ///   - clientDataHash: the hash of the serialized client data.
    /// - Returns: the statement.
    /// - Throws: `WebAuthnError` when OpenSSL cannot sign.
    public func statement(_ authenticatorData: AuthenticatorData, _ clientDataHash: [UInt8])
        throws(WebAuthnError) -> PackedAttestationStatement
    {
        PackedAttestationStatement(
            algorithm: key.algorithm, signature: try key.signature(for: authenticatorData.bytes + clientDataHash),
            certificates: certificates)
    }

    public var description: String {
        "BatchAttestation(\(certificates.count) certificates, key: <redacted>)"
    }

    /// Checks that `key` is the private half of `certificate`'s public key.
    static func check(_ key: SigningKey, matches certificate: X509Certificate) throws(WebAuthnError) {
        guard try certificate.publicKey(algorithm: nil).spki == key.publicKey.spki else {
            throw WebAuthnError(.invalidKey, "the private key given is not the certificate's key")
        }
    }

    /// One certificate in PEM (RFC 7468 §5), ending in a line feed.
    static func pem(_ der: [UInt8]) -> String {
        PEMDocument(type: "CERTIFICATE", derBytes: der).pemString + "\n"
    }
}
