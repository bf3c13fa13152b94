public import WebAuthn

/// A PIN/UV auth protocol of CTAP 2.1 (§6.5.4): how a platform and an authenticator agree on a
/// shared secret over P-256 ECDH, and how they then encrypt and authenticate with it.
///
/// The encryption and authentication operations belong to the ``PINUVAuthSharedSecret`` each
/// side obtains here, which remembers its protocol.
///
/// ```
/// encapsulate(peer) = (platformKey.publicKey, KDF(ecdh(platformKey, peer)))   ; platform
/// decapsulate(peer) = KDF(ecdh(authenticatorKey, peer))                       ; authenticator
/// ```
public enum PINUVAuthProtocol: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// PIN/UV auth protocol one (§6.5.6): KDF = SHA-256(Z), AES-256-CBC with a zero IV,
    /// HMAC-SHA-256 truncated to 16 bytes.
    case one = 1
    /// PIN/UV auth protocol two (§6.5.7): HKDF-SHA-256 into separate HMAC and AES keys,
    /// AES-256-CBC with a random IV sent in front, full HMAC-SHA-256.
    case two = 2

    public var description: String { "PIN/UV auth protocol \(rawValue)" }

    /// The platform's half of the key agreement (§6.5.6 and §6.5.7 `encapsulate`): a fresh
    /// ephemeral key, and the shared secret it makes with the authenticator's key.
    ///
    /// - Parameter peer: the authenticator's key-agreement key (from `getKeyAgreement`, or the
    ///   credential's authenticator).
    /// - Returns: the platform's public key, to send as `keyAgreement`, and the shared secret.
    /// - Throws: ``AuthenticatorError`` with `CTAP1_ERR_INVALID_PARAMETER` when `peer` is not a
    ///   point of P-256.
    public func encapsulate(peer: COSEKey) throws(AuthenticatorError) -> (
        keyAgreement: COSEKey, sharedSecret: PINUVAuthSharedSecret
    ) {
        let key: KeyAgreementPrivateKey
        do throws(WebAuthnError) {
            key = try KeyAgreementPrivateKey.generate()
        } catch {
            throw AuthenticatorError(error, "making a key-agreement key")
        }
        return (key.publicKey, try decapsulate(peer: peer, using: key))
    }

    /// The shared secret of `privateKey` with `peer` (§6.5.6 and §6.5.7 `decapsulate`): the
    /// authenticator's half of the key agreement, and the platform's when it chose its key itself.
    ///
    /// - Parameters:
    ///   - peer: the other side's key-agreement key.
    ///   - privateKey: this side's key-agreement key.
    /// - Returns: the shared secret, `KDF(Z)`.
    /// - Throws: ``AuthenticatorError`` with `CTAP1_ERR_INVALID_PARAMETER` when `peer` is not a
    ///   point of P-256.
    public func decapsulate(peer: COSEKey, using privateKey: KeyAgreementPrivateKey) throws(AuthenticatorError)
        -> PINUVAuthSharedSecret
    {
        var z: [UInt8]
        do throws(WebAuthnError) {
            z = try privateKey.sharedSecret(with: peer)
        } catch {
            throw AuthenticatorError(error, "key agreement")
        }
        defer { secureZero(&z) }
        return PINUVAuthSharedSecret(self, z: z)
    }
}
