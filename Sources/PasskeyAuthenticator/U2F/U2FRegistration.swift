/// What U2F_REGISTER answers, before the CTAP layer lays it out as a response message (FIDO U2F
/// Raw Message Formats v1.2 §4.3): the new credential and the attestation of it.
///
/// ```
/// 0x05 ‖ publicKey (65) ‖ keyHandle length (1) ‖ keyHandle ‖ certificate (DER) ‖ signature (DER)
/// ```
///
/// The signature is the attestation key's over `0x00 ‖ application ‖ challenge ‖ keyHandle ‖
/// publicKey`, the bytes WebAuthn's `fido-u2f` statement verifies (WebAuthn L3 §8.6 step 5).
public struct U2FRegistration: Sendable, Hashable {
    /// The credential's public key, an uncompressed P-256 point (`0x04 ‖ x ‖ y`, SEC 1 §2.3.3).
    public let publicKey: [UInt8]
    /// The key handle: the credential ID, at most 255 bytes.
    public let keyHandle: [UInt8]
    /// The attestation certificate, DER (X.509, a P-256 key).
    public let certificate: [UInt8]
    /// The attestation signature, DER ECDSA with SHA-256.
    public let signature: [UInt8]

    /// Describes a registration.
    ///
    /// - Parameters:
    ///   - publicKey: the uncompressed P-256 point.
    ///   - keyHandle: the credential ID.
    ///   - certificate: the attestation certificate.
    ///   - signature: the attestation signature.
    public init(publicKey: [UInt8], keyHandle: [UInt8], certificate: [UInt8], signature: [UInt8]) {
        self.publicKey = publicKey
        self.keyHandle = keyHandle
        self.certificate = certificate
        self.signature = signature
    }
}
