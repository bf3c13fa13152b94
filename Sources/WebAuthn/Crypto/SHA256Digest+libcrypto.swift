private import CCrypto

/// SHA-256 (FIPS 180-4), as WebAuthn hashes client data and RP IDs (WebAuthn L3 §6.1).
///
/// The digest is fetched from the default provider once (`FetchedDigest`); `EVP_sha256()` would
/// have OpenSSL 3 look it up by name on every hash.
public enum SHA256Digest {
    /// The length of a digest, in bytes.
    package static let digestLength = 32

    /// Hashes bytes.
    ///
    /// - Parameter bytes: the message.
    /// - Returns: the 32-byte digest.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        bytes.withContiguousStorageIfAvailable { hash($0) } ?? hash(Array(bytes))
    }

    /// Hashes an array: the same digest, through code made for contiguous bytes, which a generic
    /// call from another module otherwise reaches only after a dynamic cast.
    ///
    /// - Parameter bytes: the message.
    /// - Returns: the 32-byte digest.
    package static func hash(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { hash($0) }
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard let message = bytes.baseAddress else {
            // OpenSSL refuses a null pointer even with a zero length in some calls.
            return [0].withUnsafeBufferPointer { hash(UnsafeBufferPointer(rebasing: $0.prefix(0))) }
        }
        var digest = [UInt8](repeating: 0, count: digestLength)
        let result = EVP_Digest(message, bytes.count, &digest, nil, FetchedDigest.sha256, nil)
        // EVP_Digest with a built-in digest fails only when allocation fails.
        precondition(result == 1, "EVP_Digest(SHA-256) failed")
        return digest
    }
}
