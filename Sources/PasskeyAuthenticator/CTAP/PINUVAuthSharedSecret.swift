import WebAuthn

/// The shared secret of a PIN/UV auth protocol (CTAP 2.1 §6.5.6, §6.5.7), with the protocol's
/// `encrypt`, `decrypt`, `authenticate` and `verify`.
///
/// ```
/// protocol one: secret = SHA-256(Z)                                  ; 32 bytes, HMAC and AES key
///               encrypt(p) = AES-256-CBC(secret, IV = 0¹²⁸, p)
///               authenticate(m) = HMAC-SHA-256(secret, m)[0..<16]
/// protocol two: secret = HKDF-SHA-256(Z, salt = 0²⁵⁶, "CTAP2 HMAC key", 32)
///                      ‖ HKDF-SHA-256(Z, salt = 0²⁵⁶, "CTAP2 AES key", 32)   ; 64 bytes
///               encrypt(p) = IV ‖ AES-256-CBC(AES key, IV, p)          ; IV random, 16 bytes
///               authenticate(m) = HMAC-SHA-256(HMAC key, m)
/// ```
///
/// The secret never prints: `description` names only the protocol and the mirror is empty
/// (STYLE §5).
public struct PINUVAuthSharedSecret: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The protocol the secret was made by, whose operations it performs.
    public let pinUVAuthProtocol: PINUVAuthProtocol
    private let hmacKey: SecretKey
    private let aesKey: SecretKey

    /// The KDF of the protocol (§6.5.6, §6.5.7 `kdf`) applied to an ECDH result.
    init(_ pinUVAuthProtocol: PINUVAuthProtocol, z: [UInt8]) {
        var bytes: [UInt8]
        switch pinUVAuthProtocol {
        case .one:
            bytes = SHA256Digest.hash(z)
        case .two:
            let salt = [UInt8](repeating: 0, count: 32)
            bytes =
                KDF.hkdfSHA256(inputKeyMaterial: z, salt: salt, info: Array("CTAP2 HMAC key".utf8), length: 32)
                + KDF.hkdfSHA256(inputKeyMaterial: z, salt: salt, info: Array("CTAP2 AES key".utf8), length: 32)
        }
        defer { secureZero(&bytes) }
        // The KDF output has exactly the length this initialiser takes.
        try! self.init(pinUVAuthProtocol, bytes: bytes)
    }

    /// Test seam: a secret from its bytes, to reproduce vectors from the authenticator's side.
    ///
    /// - Throws: ``AuthenticatorError`` with `CTAP1_ERR_INVALID_LENGTH` unless `bytes` is 32 bytes
    ///   (protocol one) or 64 (protocol two: the HMAC key, then the AES key).
    package init(_ pinUVAuthProtocol: PINUVAuthProtocol, bytes: [UInt8]) throws(AuthenticatorError) {
        self.pinUVAuthProtocol = pinUVAuthProtocol
        do throws(WebAuthnError) {
            switch (pinUVAuthProtocol, bytes.count) {
            case (.one, 32):
                hmacKey = try SecretKey(bytes: bytes)
                aesKey = hmacKey
            case (.two, 64):
                hmacKey = try SecretKey(bytes: Array(bytes.prefix(32)))
                aesKey = try SecretKey(bytes: Array(bytes.suffix(32)))
            default:
                throw WebAuthnError(.invalidLength, "a \(pinUVAuthProtocol) shared secret is not \(bytes.count) bytes")
            }
        } catch {
            throw AuthenticatorError(error, "shared secret")
        }
    }

    /// Test seam: the secret's bytes, as the W3C vectors print them.
    package var bytes: [UInt8] {
        let hmac = hmacKey.withUnsafeBytes { Array($0) }
        return pinUVAuthProtocol == .one ? hmac : hmac + aesKey.withUnsafeBytes { Array($0) }
    }

    /// Encrypts whole blocks (§6.5.6, §6.5.7 `encrypt`).
    ///
    /// - Parameter plaintext: a multiple of 16 bytes.
    /// - Returns: protocol one: the ciphertext; protocol two: a random IV, then the ciphertext.
    /// - Throws: ``AuthenticatorError`` with `CTAP1_ERR_INVALID_LENGTH` when the plaintext is not
    ///   whole blocks.
    public func encrypt(_ plaintext: some Collection<UInt8>) throws(AuthenticatorError) -> [UInt8] {
        try encrypt(
            plaintext, iv: pinUVAuthProtocol == .one ? [UInt8](repeating: 0, count: 16) : SecureRandom.bytes(16))
    }

    /// Test seam: ``encrypt(_:)`` with a chosen IV (protocol one's is all zeros).
    package func encrypt(_ plaintext: some Collection<UInt8>, iv: [UInt8]) throws(AuthenticatorError) -> [UInt8] {
        do throws(WebAuthnError) {
            let ciphertext = try AESCBC.encrypt(plaintext, key: aesKey, iv: iv)
            return pinUVAuthProtocol == .one ? ciphertext : iv + ciphertext
        } catch {
            throw AuthenticatorError(error, "\(pinUVAuthProtocol) encrypt")
        }
    }

    /// Decrypts what the other side's `encrypt` produced (§6.5.6, §6.5.7 `decrypt`).
    ///
    /// - Parameter ciphertext: protocol one: whole blocks; protocol two: a 16-byte IV, then whole
    ///   blocks.
    /// - Returns: the plaintext. Unauthenticated: check the accompanying code with ``verify(_:for:)``
    ///   first.
    /// - Throws: ``AuthenticatorError`` with `CTAP1_ERR_INVALID_LENGTH` for a ciphertext that is
    ///   not whole blocks, or for protocol two shorter than its IV.
    public func decrypt(_ ciphertext: some Collection<UInt8>) throws(AuthenticatorError) -> [UInt8] {
        do throws(WebAuthnError) {
            return try decryptBlocks(ciphertext)
        } catch {
            throw AuthenticatorError(error, "\(pinUVAuthProtocol) decrypt")
        }
    }

    private func decryptBlocks(_ ciphertext: some Collection<UInt8>) throws(WebAuthnError) -> [UInt8] {
        switch pinUVAuthProtocol {
        case .one:
            return try AESCBC.decrypt(ciphertext, key: aesKey, iv: [UInt8](repeating: 0, count: 16))
        case .two:
            guard ciphertext.count >= 16 else {
                throw WebAuthnError(.invalidLength, "a protocol two ciphertext of \(ciphertext.count) bytes has no IV")
            }
            return try AESCBC.decrypt(ciphertext.dropFirst(16), key: aesKey, iv: ciphertext.prefix(16))
        }
    }

    /// The authentication code of a message (§6.5.6, §6.5.7 `authenticate`).
    ///
    /// - Parameter message: the bytes to authenticate.
    /// - Returns: protocol one: the first 16 bytes of HMAC-SHA-256; protocol two: all 32.
    public func authenticate(_ message: some Collection<UInt8>) -> [UInt8] {
        let code = hmacKey.withUnsafeBytes { HMACSHA256.authenticationCode(for: message, key: $0) }
        return pinUVAuthProtocol == .one ? Array(code.prefix(16)) : code
    }

    /// Whether `signature` is the authentication code of `message` (§6.5.6, §6.5.7 `verify`),
    /// compared in constant time.
    ///
    /// - Parameters:
    ///   - signature: the code received.
    ///   - message: the bytes it claims to authenticate.
    /// - Returns: whether it is exactly ``authenticate(_:)`` of `message`.
    public func verify(_ signature: some Collection<UInt8>, for message: some Collection<UInt8>) -> Bool {
        constantTimeEquals(authenticate(message), signature)
    }

    public var description: String { "PINUVAuthSharedSecret(\(pinUVAuthProtocol.rawValue), <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
