/// AES-256-CBC without padding (NIST SP 800-38A §6.2), the cipher of the CTAP 2.1 PIN/UV auth
/// protocols (§6.5.6: zero IV; §6.5.7: random IV sent in front of the ciphertext).
///
/// ```
/// C[1] = AES(K, P[1] ⊕ IV),  C[j] = AES(K, P[j] ⊕ C[j-1])   ; P a whole number of 16-byte blocks
/// ```
///
/// CBC is malleable and unauthenticated: CTAP pairs it with an HMAC over the ciphertext, and so
/// must any other caller.
public enum AESCBC {
    /// The block length, which is also the IV length, in bytes.
    package static let blockLength = 16

    /// Encrypts whole blocks.
    ///
    /// - Parameters:
    ///   - plaintext: a multiple of 16 bytes, possibly none.
    ///   - key: the 256-bit key.
    ///   - iv: the 16-byte initialisation vector.
    /// - Returns: the ciphertext, as long as the plaintext.
    /// - Throws: `WebAuthnError` with `invalid-length` for a plaintext that is not whole blocks or
    ///   an IV that is not 16 bytes, or `crypto-failure` if OpenSSL fails.
    public static func encrypt(
        _ plaintext: some Collection<UInt8>, key: SecretKey, iv: some Collection<UInt8>
    ) throws(WebAuthnError) -> [UInt8] {
        try checkLengths(plaintext.count, iv.count)
        return try cipher(plaintext, key: key, iv: Array(iv), encrypting: true)
    }

    /// Decrypts whole blocks.
    ///
    /// Without padding there is nothing to check: any ciphertext of whole blocks decrypts, and a
    /// wrong key gives noise rather than an error.
    ///
    /// - Parameters:
    ///   - ciphertext: a multiple of 16 bytes, possibly none.
    ///   - key: the 256-bit key.
    ///   - iv: the 16-byte initialisation vector.
    /// - Returns: the plaintext, as long as the ciphertext.
    /// - Throws: `WebAuthnError` with `invalid-length` for a ciphertext that is not whole blocks or
    ///   an IV that is not 16 bytes, or `crypto-failure` if OpenSSL fails.
    public static func decrypt(
        _ ciphertext: some Collection<UInt8>, key: SecretKey, iv: some Collection<UInt8>
    ) throws(WebAuthnError) -> [UInt8] {
        try checkLengths(ciphertext.count, iv.count)
        return try cipher(ciphertext, key: key, iv: Array(iv), encrypting: false)
    }

    private static func checkLengths(_ inputLength: Int, _ ivLength: Int) throws(WebAuthnError) {
        guard inputLength % blockLength == 0 else {
            throw WebAuthnError(
                .invalidLength, "AES-CBC without padding takes whole \(blockLength)-byte blocks, not \(inputLength)")
        }
        guard ivLength == blockLength else {
            throw WebAuthnError(.invalidLength, "an AES-CBC IV is \(blockLength) bytes, not \(ivLength)")
        }
    }
}
