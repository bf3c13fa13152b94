/// AES-256-GCM (NIST SP 800-38D), the sealing used for private keys at rest.
///
/// ```
/// sealed = nonce (12 bytes, random per seal) ‖ ciphertext (as long as the plaintext) ‖ tag (16 bytes)
/// ```
///
/// A fresh random 96-bit nonce per seal keeps nonce reuse under one key negligible for the
/// number of seals a passkey store makes (SP 800-38D §8.3).
public enum AESGCM {
    /// The nonce length, in bytes.
    package static let nonceLength = 12
    /// The authentication tag length, in bytes.
    package static let tagLength = 16

    /// Encrypts and authenticates a plaintext.
    ///
    /// - Parameters:
    ///   - plaintext: the bytes to seal.
    ///   - key: the 256-bit key.
    ///   - associatedData: bytes authenticated but not encrypted; `open` must be given the same.
    /// - Returns: `nonce ‖ ciphertext ‖ tag`.
    /// - Throws: `WebAuthnError` with `crypto-failure` if OpenSSL fails.
    public static func seal(
        _ plaintext: some Collection<UInt8>, using key: SecretKey,
        authenticating associatedData: some Collection<UInt8>
    ) throws(WebAuthnError) -> [UInt8] {
        let nonce = SecureRandom.bytes(nonceLength)
        let (ciphertext, tag) = try encrypt(plaintext, key: key, nonce: nonce, associatedData: associatedData)
        return nonce + ciphertext + tag
    }

    /// Checks and decrypts what ``seal(_:using:authenticating:)`` produced.
    ///
    /// - Parameters:
    ///   - sealed: `nonce ‖ ciphertext ‖ tag`.
    ///   - key: the key it was sealed with.
    ///   - associatedData: the associated data it was sealed with.
    /// - Returns: the plaintext.
    /// - Throws: `WebAuthnError` with `decryption-failed` for a wrong key or associated data,
    ///   tampered or truncated bytes.
    public static func open(
        _ sealed: some Collection<UInt8>, using key: SecretKey, authenticating associatedData: some Collection<UInt8>
    ) throws(WebAuthnError) -> [UInt8] {
        let sealed = Array(sealed)
        guard sealed.count >= nonceLength + tagLength else {
            throw WebAuthnError(
                .decryptionFailed, "sealed data is \(sealed.count) bytes, shorter than nonce and tag")
        }
        let nonce = sealed.prefix(nonceLength)
        let ciphertext = sealed.dropFirst(nonceLength).dropLast(tagLength)
        let tag = sealed.suffix(tagLength)
        return try decrypt(ciphertext, key: key, nonce: nonce, tag: tag, associatedData: associatedData)
    }
}
