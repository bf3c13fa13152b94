private import CCrypto

/// SHA-256 (FIPS 180-4), as WebAuthn hashes client data and RP IDs (WebAuthn L3 §6.1).
public enum SHA256Digest {
    /// The length of a digest, in bytes.
    package static let digestLength = 32

    /// Hashes bytes.
    ///
    /// - Parameter bytes: the message.
    /// - Returns: the 32-byte digest.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: digestLength)
        let result = withBorrowedBytes(bytes) { message in
            EVP_Digest(message.baseAddress, message.count, &digest, nil, EVP_sha256(), nil)
        }
        // EVP_Digest with a built-in digest fails only when allocation fails.
        precondition(result == 1, "EVP_Digest(SHA-256) failed")
        return digest
    }
}
