private import CCrypto

/// HMAC-SHA-256 (RFC 2104, FIPS 198-1).
public enum HMACSHA256 {
    /// Computes the authentication code of a message.
    ///
    /// Keys longer than the 64-byte block are hashed first, as RFC 2104 §2 specifies.
    ///
    /// - Parameters:
    ///   - message: the message.
    ///   - key: the key, of any length.
    /// - Returns: the 32-byte code.
    public static func authenticationCode(for message: some Collection<UInt8>, key: some Collection<UInt8>) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: SHA256Digest.digestLength)
        let result = withSecretBytes(key) { key in
            withBorrowedBytes(message) { message in
                HMAC(EVP_sha256(), key.baseAddress, Int32(key.count), message.baseAddress, message.count, &code, nil)
            }
        }
        // The one-shot HMAC with a built-in digest fails only when allocation fails.
        precondition(result != nil, "HMAC-SHA-256 failed")
        return code
    }
}
