import Crypto
import FoundationEssentials
import WebAuthn
import X509

extension BatchAttestation {
    /// An attestation that attests nothing: a new P-256 key and a self-signed certificate of it,
    /// made for one U2F registration and then forgotten.
    ///
    /// U2F_REGISTER has no `none`: its response always carries an X.509 certificate with a P-256
    /// key, and the registration signature by that key (FIDO U2F Raw Message Formats v1.2 §4.3,
    /// WebAuthn L3 §8.6). An authenticator without a batch certificate (the security-key profile
    /// self-attests in CTAP2) answers with this one: the signature verifies, the certificate
    /// chains to nothing, and, made afresh each time, it links no two registrations, as `none`
    /// and self attestation do not.
    ///
    /// - Parameter now: the start of the validity period, less an hour for clock skew.
    /// - Returns: the key and its one certificate.
    /// - Throws: `WebAuthnError` with `crypto-failure` when the certificate cannot be made.
    static func anonymousU2F(now: Date = Date()) throws(WebAuthnError) -> BatchAttestation {
        let key = P256.Signing.PrivateKey()
        let certificate = try AttestationCertificateAuthority.making("a U2F attestation certificate") {
            let subject = try DistinguishedName {
                OrganizationName("SoftPasskey")
                OrganizationalUnitName("Authenticator Attestation")
                CommonName("SoftPasskey U2F")
            }
            return try AttestationCertificateAuthority.der(
                Certificate(
                    version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
                    notValidBefore: now - 3600, notValidAfter: now + AttestationCertificateAuthority.validity,
                    issuer: subject, subject: subject,
                    extensions: try Certificate.Extensions { Critical(BasicConstraints.notCertificateAuthority) },
                    issuerPrivateKey: .init(key)))
        }
        return try BatchAttestation(
            certificates: [certificate],
            key: SigningKey(rawRepresentation: key.rawRepresentation, algorithm: .es256))
    }
}
