/// What U2F_AUTHENTICATE answers, before the CTAP layer lays it out as a response message (FIDO
/// U2F Raw Message Formats v1.2 §5.4).
///
/// ```
/// userPresence (1) ‖ counter (4, big-endian) ‖ signature (DER)
/// ```
///
/// The signature is the credential key's over `application ‖ userPresence ‖ counter ‖
/// challenge`: WebAuthn's `authenticatorData ‖ clientDataHash` when the RP ID hash is the
/// application parameter and the client data hash the challenge (WebAuthn L3 §6.1, §6.3.3), which
/// is why a CTAP2 assertion and a U2F one are the same signature.
public struct U2FAuthentication: Sendable, Hashable {
    /// The user presence byte: bit 0 set when the user was present (§5.4), the other bits clear.
    public let userPresence: UInt8
    /// The credential's signature counter after this signature.
    public let counter: UInt32
    /// The signature, DER ECDSA with SHA-256.
    public let signature: [UInt8]

    /// Describes an authentication.
    ///
    /// - Parameters:
    ///   - userPresence: the user presence byte.
    ///   - counter: the counter.
    ///   - signature: the signature.
    public init(userPresence: UInt8, counter: UInt32, signature: [UInt8]) {
        self.userPresence = userPresence
        self.counter = counter
        self.signature = signature
    }
}
