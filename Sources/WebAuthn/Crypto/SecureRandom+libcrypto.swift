private import CCrypto

/// Cryptographically secure random bytes from OpenSSL's DRBG (`RAND_bytes`), for challenges,
/// nonces and keys.
public enum SecureRandom {
    /// Returns random bytes.
    ///
    /// - Parameter count: how many bytes; not negative.
    /// - Returns: `count` bytes from the DRBG.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0 && count <= Int32.max, "SecureRandom.bytes: count \(count) out of range")
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else {
            return bytes
        }
        // RAND_bytes fails only when the DRBG cannot be seeded. Carrying on would hand out
        // predictable keys and challenges, and no caller could recover, so stop here.
        guard RAND_bytes(&bytes, Int32(count)) == 1 else {
            preconditionFailure("RAND_bytes failed: the system random generator is unavailable")
        }
        return bytes
    }
}
