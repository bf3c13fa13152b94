/// Key derivation functions: HKDF for keys from key material, scrypt for keys from passphrases.
public enum KDF {
    /// The largest output HKDF-SHA-256 can give: 255 blocks of 32 bytes (RFC 5869 §2.3).
    package static let hkdfMaximumLength = 255 * SHA256Digest.digestLength

    /// The memory ceiling handed to scrypt. The cost of scrypt is about `128 · r · (n + p)` bytes;
    /// 1 GiB leaves room for n = 2^17, r = 8 (128 MiB) with any sensible p.
    static let scryptMaximumMemory: UInt64 = 1 << 30

    /// Derives key material with HKDF-SHA-256 (RFC 5869): extract with `salt`, then expand with
    /// `info`.
    ///
    /// - Parameters:
    ///   - inputKeyMaterial: the secret to derive from.
    ///   - salt: the extract salt; empty means a string of zeros (RFC 5869 §2.2).
    ///   - info: context that binds the output to its use.
    ///   - length: how many bytes, at most 8160 (RFC 5869 §2.3).
    /// - Returns: `length` bytes of output key material.
    public static func hkdfSHA256(
        inputKeyMaterial: some Collection<UInt8>, salt: some Collection<UInt8>, info: some Collection<UInt8>,
        length: Int
    ) -> [UInt8] {
        precondition(
            (0...hkdfMaximumLength).contains(length),
            "HKDF-SHA-256 gives 0 to \(hkdfMaximumLength) bytes, not \(length)")
        guard length > 0 else {
            return []
        }
        return deriveHKDFSHA256(inputKeyMaterial: inputKeyMaterial, salt: salt, info: info, length: length)
    }

    /// Derives a 256-bit key from a passphrase with scrypt (RFC 7914).
    ///
    /// - Parameters:
    ///   - password: the passphrase bytes.
    ///   - salt: a random salt stored next to what the key seals.
    ///   - n: the CPU/memory cost, a power of two greater than 1 (2^15 to 2^17 for interactive use).
    ///   - r: the block size (8).
    ///   - p: the parallelisation (1).
    /// - Returns: the derived key.
    /// - Throws: `WebAuthnError` with `invalid-key` for parameters RFC 7914 §2 forbids, or
    ///   `crypto-failure` when OpenSSL refuses them (for example beyond its memory ceiling).
    public static func scrypt(
        password: some Collection<UInt8>, salt: some Collection<UInt8>, n: UInt64, r: UInt32, p: UInt32
    ) throws(WebAuthnError) -> SecretKey {
        var bytes = try scrypt(password: password, salt: salt, n: n, r: r, p: p, length: SecretKey.byteCount)
        defer { secureZero(&bytes) }
        return bytes.withUnsafeBufferPointer { SecretKey(copying: $0) }
    }

    /// scrypt with any output length, for the RFC 7914 §12 vectors (64 bytes).
    package static func scrypt(
        password: some Collection<UInt8>, salt: some Collection<UInt8>, n: UInt64, r: UInt32, p: UInt32, length: Int
    ) throws(WebAuthnError) -> [UInt8] {
        guard n > 1, n & (n - 1) == 0 else {
            throw WebAuthnError(.invalidKey, "scrypt cost n must be a power of two greater than 1, not \(n)")
        }
        guard r > 0, p > 0 else {
            throw WebAuthnError(.invalidKey, "scrypt needs r > 0 and p > 0 (r = \(r), p = \(p))")
        }
        guard length > 0 else {
            throw WebAuthnError(.invalidKey, "scrypt output length must be positive, not \(length)")
        }
        return try deriveScrypt(password: password, salt: salt, n: n, r: r, p: p, length: length)
    }
}
