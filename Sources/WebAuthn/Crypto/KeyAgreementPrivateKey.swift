/// A P-256 private key for ECDH key agreement, as the PIN/UV auth protocols of CTAP 2.1 use it
/// (§6.5.6 `initialize`, `getPublicKey`, `ecdh`).
///
/// ```
/// publicKey = { 1: 2, 3: -25, -1: 1, -2: x, -3: y }   ; EC2, ECDH-ES + HKDF-256, P-256
/// Z         = x-coordinate of (d · peer point)          ; 32 bytes, SP 800-56A §5.7.1.2
/// ```
///
/// The private scalar stays inside OpenSSL. The key never prints: `description` names only the
/// curve and the mirror is empty (STYLE §5).
public struct KeyAgreementPrivateKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The public key as CTAP 2.1 §6.5.6 `getPublicKey` gives it: EC2 on P-256, with `alg` -25
    /// (ECDH-ES + HKDF-256, "although this is not the algorithm actually used").
    public let publicKey: COSEKey
    private let key: EVPKey

    private init(key: EVPKey) throws(WebAuthnError) {
        self.key = key
        self.publicKey = try key.publicCOSEKey(algorithm: .ecdhESHKDF256)
    }

    /// Makes a new random key pair.
    ///
    /// - Returns: the new key.
    /// - Throws: `WebAuthnError` with `crypto-failure` if OpenSSL fails.
    public static func generate() throws(WebAuthnError) -> KeyAgreementPrivateKey {
        try KeyAgreementPrivateKey(key: EVPKey.generate(curve: .p256))
    }

    /// Takes a key from its private scalar, to reproduce test vectors.
    ///
    /// - Parameter rawRepresentation: the 32-byte big-endian scalar `d` (SEC 1 §2.3.6).
    /// - Throws: `WebAuthnError` with `invalid-key` for a wrong length or a scalar that is 0 or not
    ///   below the group order.
    public init(rawRepresentation: some Collection<UInt8>) throws(WebAuthnError) {
        let length = COSECurve.p256.coordinateLength
        guard rawRepresentation.count == length else {
            throw WebAuthnError(
                .invalidKey, "a raw P-256 private key is \(length) bytes, not \(rawRepresentation.count)")
        }
        try self.init(key: EVPKey(rawPrivateKey: rawRepresentation, curve: .p256))
    }

    /// Computes the ECDH shared secret with a peer's public key (CTAP 2.1 §6.5.6 `ecdh`, before
    /// its KDF).
    ///
    /// The peer's `alg` is not looked at: platforms and authenticators label these keys -25, but
    /// only the point matters.
    ///
    /// - Parameter peer: an EC2 key on P-256.
    /// - Returns: `Z`, the 32-byte big-endian x-coordinate of the shared point. The caller wipes it.
    /// - Throws: `WebAuthnError` with `invalid-key` for a key that is not on P-256 or a point that
    ///   is not on the curve, or `crypto-failure` if OpenSSL fails.
    public func sharedSecret(with peer: COSEKey) throws(WebAuthnError) -> [UInt8] {
        guard case .ec2(.p256, _, _) = peer.parameters else {
            throw WebAuthnError(
                .invalidKey,
                "a key-agreement peer is an EC2 key on P-256, not \(peer.keyType) "
                    + (peer.curve.map(\.description) ?? ""))
        }
        return try key.derive(with: EVPKey(publicKey: peer))
    }

    public var description: String { "KeyAgreementPrivateKey(P-256, <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
