import Crypto
import SwiftASN1
import WebAuthn
import X509

/// The formats whose certificate certifies the credential key itself or an attestation key that
/// certified it: `tpm`, `android-key`, `apple`.
extension ConformancePKI {
    /// `tpm` (§8.3): `pubArea` is the credential key, `certInfo` certifies it for attToBeSigned,
    /// and the AIK, whose certificate meets §8.3.1 (``AttestationFault/wrongCertificateProfile``:
    /// without the AIK usage) and vouches for the AAGUID, signs `certInfo` with ES256.
    func tpm(_ forgery: Forgery) throws(WebAuthnError) -> CBOR {
        let key = try Self.key(seed, .tpmAIK)
        let aaguid = try forgery.certifiedAAGUID
        let publicArea = try TPMStatementParts.publicArea(of: forgery.credentialKey.publicKey)
        let certInfo = TPMStatementParts.certInfo(
            extraData: SHA256Digest.hash(forgery.signedData), attestedName: TPMStatementParts.name(of: publicArea))
        let certificate = try forging("the AIK certificate") {
            try leaf(
                .tpmAIK, DistinguishedName(), publicKey: .init(key.publicKey),
                extensions: AttestationCertificateProfile.aikExtensions(
                    usage: forgery.fault != .wrongCertificateProfile, aaguid: aaguid),
                fault: forgery.fault)
        }
        return [
            "ver": "2.0", "alg": CBOR(COSEAlgorithm.es256.rawValue),
            "sig": .bytes(try forgery.sign(Self.signingKey(key), certInfo)), "x5c": [.bytes(certificate)],
            "certInfo": .bytes(certInfo), "pubArea": .bytes(publicArea),
        ]
    }

    /// `android-key` (§8.4): the credential key signs attToBeSigned; its certificate carries the
    /// key description of a key generated in the TEE to sign, for the challenge clientDataHash
    /// (``AttestationFault/badSignature``: another challenge; ``AttestationFault/wrongCertificateProfile``:
    /// no key description).
    func androidKey(_ forgery: Forgery) throws(WebAuthnError) -> CBOR {
        let challenge =
            forgery.fault == .badSignature ? SHA256Digest.hash(forgery.clientDataHash) : forgery.clientDataHash
        let certificate = try credentialCertificate(.androidKey, "Android Keystore Key", forgery) {
            try AndroidAuthorizationList.keyDescription(challenge: challenge)
        }
        let signature = try forgery.credentialKey.signature(for: forgery.signedData)
        // A Keystore chain ends at its root, as Google's does, and verifiers (py_webauthn) read it there.
        let issuer = (forgery.fault == .untrustedChain ? otherIssuer : rootIssuer).der
        return [
            "alg": CBOR(forgery.credentialKey.algorithm.rawValue), "sig": .bytes(signature),
            "x5c": [.bytes(certificate), .bytes(issuer)],
        ]
    }

    /// `apple` (§8.8): a certificate of the credential key whose nonce extension holds
    /// SHA-256(attToBeSigned) (``AttestationFault/badSignature``: the nonce of other data;
    /// ``AttestationFault/wrongCertificateProfile``: no nonce extension).
    func apple(_ forgery: Forgery) throws(WebAuthnError) -> CBOR {
        let nonce = SHA256Digest.hash(forgery.fault == .badSignature ? forgery.signedData + [0] : forgery.signedData)
        let certificate = try credentialCertificate(.apple, "SoftPasskey Conformance Credential", forgery) {
            try AttestationCertificateProfile.appleNonceExtension(nonce)
        }
        return ["x5c": [.bytes(certificate)]]
    }

    /// A certificate of the credential key itself, named `commonName`, with the extension
    /// `profile` makes (none for ``AttestationFault/wrongCertificateProfile``).
    private func credentialCertificate(
        _ entity: Entity, _ commonName: String, _ forgery: Forgery,
        profile: () throws -> Certificate.Extension
    ) throws(WebAuthnError) -> [UInt8] {
        try forging("the \(entity.rawValue) credential certificate") {
            try leaf(
                entity, DistinguishedName { CommonName(commonName) },
                publicKey: Certificate.PublicKey(derEncoded: forgery.credentialKey.publicKey.spki),
                extensions: Certificate.Extensions(forgery.fault == .wrongCertificateProfile ? [] : [profile()]),
                fault: forgery.fault)
        }
    }
}
