/// The scrypt parameters (RFC 7914) kept beside what a passphrase key seals: a credential store's
/// `store.json`, a sealed export, sealed session storage. They are not secret.
///
/// ```
/// { "salt": base64url (16 random bytes or more), "n": 32768, "r": 8, "p": 1 }
/// ```
public struct ScryptParameters: Codable, Sendable, Hashable {
    /// The salt, random per sealing context.
    public var salt: Base64URL
    /// The CPU/memory cost, a power of two.
    public var n: UInt64
    /// The block size.
    public var r: UInt32
    /// The parallelisation.
    public var p: UInt32

    /// Parameters as they are.
    public init(salt: Base64URL, n: UInt64, r: UInt32, p: UInt32) {
        self.salt = salt
        self.n = n
        self.r = r
        self.p = p
    }

    /// A new random salt with N = 2^15, r = 8, p = 1: 32 MiB and about 50 ms on a laptop core,
    /// within an interactive unlock budget (RFC 7914 §2 recommends N = 2^14 as a floor for
    /// interactive use).
    public static func fresh() -> ScryptParameters {
        ScryptParameters(salt: Base64URL(SecureRandom.bytes(16)), n: 1 << 15, r: 8, p: 1)
    }

    /// Whether parameters read from a file are within bounds, so a tampered file cannot make
    /// deriving the key take gigabytes or minutes.
    public var isReasonable: Bool {
        n > 1 && n & (n - 1) == 0 && n <= 1 << 20 && (1...32).contains(r) && (1...16).contains(p)
            && salt.bytes.count >= 16
    }

    /// The 256-bit key these parameters derive from `passphrase`.
    ///
    /// - Throws: `WebAuthnError` when scrypt refuses the parameters.
    public func key(for passphrase: Passphrase) throws(WebAuthnError) -> SecretKey {
        try KDF.scrypt(password: passphrase.bytes, salt: salt.bytes, n: n, r: r, p: p)
    }
}
