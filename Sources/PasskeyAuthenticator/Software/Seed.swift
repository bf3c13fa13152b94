public import WebAuthn

/// The secret of seeded mode (`--seed HEX`, `PASSKEY_SEED`): credential IDs, key pairs and PRF
/// seeds derived from it and the request instead of drawn at random, so a test run's credentials
/// are the same every time.
///
/// Each value is HKDF-SHA-256 (RFC 5869) of the seed, with the salt `"SoftPasskey seed v1"` and
/// an `info` naming its purpose and the request:
///
/// ```
/// info = purpose ‖ 0x00 ‖ uint16be(len(rpID)) ‖ rpID ‖ uint16be(len(userID)) ‖ userID
///        ‖ int32be(alg) ‖ uint32be(index) ‖ uint32be(attempt)
/// purpose = "credential-id" / "private-key" / "prf-with-uv" / "prf-without-uv"
/// index   = how many credentials the store already holds for this RP ID and user handle
/// ```
///
/// so the same seed, RP and user give the same credential in a fresh store, and a second
/// credential for them differs from the first. `attempt` is 0 except when a derived P-256
/// scalar falls outside `[1, n)` (probability about 2⁻³²), when the next attempt is taken.
///
/// A seed is a secret: its `description` and mirror show nothing of it.
public struct Seed: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let key: SecretKey

    /// Takes a seed from its hex form.
    ///
    /// - Parameter hex: at least 16 bytes (32 hex digits) of secret.
    /// - Throws: `WebAuthnError` with `malformed-encoding` for text that is not hex, or
    ///   `invalid-key` for fewer than 16 bytes.
    public init(hex: String) throws(WebAuthnError) {
        var bytes = try Hex.decode(hex)
        defer { secureZero(&bytes) }
        guard bytes.count >= 16 else {
            throw WebAuthnError(.invalidKey, "a seed is at least 16 bytes (32 hex digits), not \(bytes.count)")
        }
        // HKDF takes any length; the key type wants 32 bytes, so the seed is first extracted.
        let extracted = KDF.hkdfSHA256(
            inputKeyMaterial: bytes, salt: Array("SoftPasskey seed v1".utf8), info: [], length: SecretKey.byteCount)
        key = try SecretKey(bytes: extracted)
    }

    /// Derives a credential for a request (see the type's discussion).
    func derive(rpID: String, userID: [UInt8], algorithm: COSEAlgorithm, index: Int) throws(WebAuthnError)
        -> KeyMaterial
    {
        func expand(_ purpose: String, attempt: UInt32 = 0, length: Int = 32) -> [UInt8] {
            var info = Array(purpose.utf8) + [0]
            info += Self.lengthPrefixed(Array(rpID.utf8)) + Self.lengthPrefixed(userID)
            info += Self.bigEndian(UInt32(bitPattern: Int32(algorithm.rawValue)))
            info += Self.bigEndian(UInt32(clamping: index)) + Self.bigEndian(attempt)
            return key.withUnsafeBytes { KDF.hkdfSHA256(inputKeyMaterial: $0, salt: [], info: info, length: length) }
        }
        var attempt: UInt32 = 0
        var privateKey: SigningKey?
        while privateKey == nil {
            var raw = expand("private-key", attempt: attempt)
            defer { secureZero(&raw) }
            do {
                privateKey = try SigningKey(rawRepresentation: raw, algorithm: algorithm)
            } catch  where error.code == .invalidKey && attempt < 16 {
                attempt += 1
            }
        }
        var prfWithUV = expand("prf-with-uv")
        var prfWithoutUV = expand("prf-without-uv")
        defer {
            secureZero(&prfWithUV)
            secureZero(&prfWithoutUV)
        }
        return KeyMaterial(
            credentialID: expand("credential-id", length: 16),
            // The loop ends only with a key.
            privateKey: privateKey!,
            prfSecretWithUV: try SecretKey(bytes: prfWithUV),
            prfSecretWithoutUV: try SecretKey(bytes: prfWithoutUV))
    }

    public var description: String { "Seed(<redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }

    private static func lengthPrefixed(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8(truncatingIfNeeded: bytes.count >> 8), UInt8(truncatingIfNeeded: bytes.count)] + bytes
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian, Array.init)
    }
}
