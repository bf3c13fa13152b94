/// A private signing key held by OpenSSL: ES256 on P-256, or EdDSA on Ed25519 — the credential
/// keys this authenticator makes (WebAuthn L3 §5.8.5, RFC 9053 §2).
///
/// The private bytes stay inside OpenSSL. They leave it only as a PKCS#8 `PrivateKeyInfo`
/// (RFC 5208) sealed with AES-256-GCM, for a credential store:
///
/// ```
/// sealedPKCS8 = AESGCM.seal(PrivateKeyInfo DER, key, associatedData)
///             = nonce (12) ‖ ciphertext ‖ tag (16)
/// ```
///
/// The key never prints: `description` names only the algorithm and the mirror is empty
/// (STYLE §5).
public struct SigningKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The algorithm the key signs with.
    public let algorithm: COSEAlgorithm
    /// The public key, with ``algorithm`` set, computed once when the key is made.
    public let publicKey: COSEKey
    let key: EVPKey

    private init(algorithm: COSEAlgorithm, key: EVPKey) throws(WebAuthnError) {
        self.algorithm = algorithm
        self.key = key
        self.publicKey = try key.publicCOSEKey(algorithm: algorithm)
    }

    /// Makes a new random key.
    ///
    /// - Parameter algorithm: ``COSEAlgorithm/es256`` (P-256), ``COSEAlgorithm/eddsa`` (Ed25519), or
    ///   ``COSEAlgorithm/rs256`` / ``COSEAlgorithm/ps256`` (RSA-2048, e = 65537; RFC 8812 §2,
    ///   RFC 8230 §2).
    /// - Returns: the new key.
    /// - Throws: `WebAuthnError` with `unsupported-algorithm` for any other algorithm, or
    ///   `crypto-failure` if OpenSSL fails.
    public static func generate(_ algorithm: COSEAlgorithm) throws(WebAuthnError) -> SigningKey {
        if rsaAlgorithms.contains(algorithm) {
            return try SigningKey(algorithm: algorithm, key: EVPKey.generateRSA(bits: 2048))
        }
        return try SigningKey(algorithm: algorithm, key: EVPKey.generate(curve: try signingCurve(algorithm)))
    }

    /// The RSA algorithms a key made here signs with: PKCS#1 v1.5 and PSS over SHA-256.
    public static let rsaAlgorithms: Set<COSEAlgorithm> = [.rs256, .ps256]

    /// Takes a key from its raw private bytes.
    ///
    /// - Parameters:
    ///   - rawRepresentation: for ES256 the 32-byte big-endian scalar `d` (SEC 1 §2.3.6), for
    ///     EdDSA the 32-byte Ed25519 seed (RFC 8032 §5.1.5).
    ///   - algorithm: ``COSEAlgorithm/es256`` or ``COSEAlgorithm/eddsa``.
    /// - Throws: `WebAuthnError` with `unsupported-algorithm` for another algorithm, or
    ///   `invalid-key` for a wrong length or a scalar that is 0 or not below the group order.
    public init(rawRepresentation: some Collection<UInt8>, algorithm: COSEAlgorithm) throws(WebAuthnError) {
        let curve = try Self.signingCurve(algorithm)
        guard rawRepresentation.count == curve.coordinateLength else {
            throw WebAuthnError(
                .invalidKey,
                "a raw \(curve) private key is \(curve.coordinateLength) bytes, not \(rawRepresentation.count)")
        }
        try self.init(algorithm: algorithm, key: EVPKey(rawPrivateKey: rawRepresentation, curve: curve))
    }

    /// Reads a PKCS#8 `PrivateKeyInfo` (RFC 5958 §2, an "asymmetric key package"), as the W3C
    /// WebDriver Add Credential command takes it (WebAuthn L3 §11.3).
    ///
    /// The algorithm follows from the key: P-256 is ES256, Ed25519 is EdDSA, an RSA key signs with
    /// `rsaAlgorithm`.
    ///
    /// - Parameters:
    ///   - pkcs8: the DER, filling the collection exactly.
    ///   - rsaAlgorithm: ``COSEAlgorithm/rs256`` or ``COSEAlgorithm/ps256``, for an RSA key.
    /// - Throws: `WebAuthnError` with `invalid-key` when it is not a PKCS#8 key, or
    ///   `unsupported-algorithm` for a key that is not P-256, Ed25519 or RSA.
    public init(pkcs8: some Collection<UInt8>, rsaAlgorithm: COSEAlgorithm = .rs256) throws(WebAuthnError) {
        var der = Array(pkcs8)
        defer { secureZero(&der) }
        try self.init(pkcs8DER: der, rsaAlgorithm: rsaAlgorithm)
    }

    /// Opens a key sealed by ``sealedPKCS8(using:authenticating:)``.
    ///
    /// The algorithm follows from the key: P-256 is ES256, Ed25519 is EdDSA, RSA is `rsaAlgorithm`.
    ///
    /// - Parameters:
    ///   - sealedPKCS8: `nonce ‖ ciphertext ‖ tag` around a PKCS#8 `PrivateKeyInfo`.
    ///   - key: the key it was sealed with.
    ///   - authenticating: the associated data it was sealed with.
    ///   - rsaAlgorithm: ``COSEAlgorithm/rs256`` or ``COSEAlgorithm/ps256``, for an RSA key (the
    ///     credential's algorithm: the sealed bytes do not say which padding it signs with).
    /// - Throws: `WebAuthnError` with `decryption-failed` for a wrong key, associated data or
    ///   tampered bytes; `invalid-key` when the plaintext is not a PKCS#8 key; or
    ///   `unsupported-algorithm` for a key that is not P-256, Ed25519 or RSA.
    public init(
        sealedPKCS8: some Collection<UInt8>, using key: SecretKey, authenticating: some Collection<UInt8>,
        rsaAlgorithm: COSEAlgorithm = .rs256
    ) throws(WebAuthnError) {
        var der = try AESGCM.open(sealedPKCS8, using: key, authenticating: authenticating)
        defer { secureZero(&der) }
        try self.init(pkcs8DER: der, rsaAlgorithm: rsaAlgorithm)
    }

    /// Reads PKCS#8 DER: through ``KeyDERTemplate`` for the forms it writes, else OpenSSL.
    private init(pkcs8DER der: [UInt8], rsaAlgorithm: COSEAlgorithm) throws(WebAuthnError) {
        if let (curve, raw) = KeyDERTemplate.rawPrivateKey(pkcs8: der) {
            try self.init(rawRepresentation: raw, algorithm: curve == .p256 ? .es256 : .eddsa)
            return
        }
        let privateKey = try EVPKey(pkcs8: der)
        let publicKey = try privateKey.publicCOSEKey(algorithm: nil)
        let algorithm: COSEAlgorithm
        switch (publicKey.parameters, publicKey.curve) {
        case (_, .p256): algorithm = .es256
        case (_, .ed25519): algorithm = .eddsa
        case (.rsa, _) where Self.rsaAlgorithms.contains(rsaAlgorithm): algorithm = rsaAlgorithm
        case (_, let curve):
            throw WebAuthnError(
                .unsupportedAlgorithm,
                "the key is on \(curve.map(\.description) ?? "no curve"), not P-256, Ed25519 or RSA")
        }
        try self.init(algorithm: algorithm, key: privateKey)
    }

    /// Seals the private key for storage.
    ///
    /// - Parameters:
    ///   - key: the sealing key.
    ///   - authenticating: associated data binding the sealed key to its record (a credential id).
    /// - Returns: `nonce ‖ ciphertext ‖ tag` around the PKCS#8 `PrivateKeyInfo` DER.
    /// - Throws: `WebAuthnError` with `crypto-failure` if OpenSSL fails.
    public func sealedPKCS8(using key: SecretKey, authenticating: some Collection<UInt8>) throws(WebAuthnError)
        -> [UInt8]
    {
        var der = try self.pkcs8()
        defer { secureZero(&der) }
        return try AESGCM.seal(der, using: key, authenticating: authenticating)
    }

    /// The key in the clear as PKCS#8 `PrivateKeyInfo` DER (RFC 5958 §2): only for an explicit
    /// export, such as the private key of a W3C WebDriver credential (WebAuthn L3 §11.4). The
    /// caller wipes the result.
    ///
    /// - Returns: the DER.
    /// - Throws: `WebAuthnError` with `crypto-failure` if OpenSSL fails.
    public func exportedPKCS8() throws(WebAuthnError) -> [UInt8] {
        try pkcs8()
    }

    /// The key as PKCS#8 DER: for P-256 and Ed25519 written from the raw key by
    /// ``KeyDERTemplate`` (OpenSSL 3's encoder framework costs more than the key's generation),
    /// else by OpenSSL. The caller wipes the result.
    private func pkcs8() throws(WebAuthnError) -> [UInt8] {
        guard let curve = publicKey.curve, curve == .p256 || curve == .ed25519 else {
            return try key.pkcs8()
        }
        var raw = try key.rawPrivateKey(curve: curve)
        defer { secureZero(&raw) }
        if let der = KeyDERTemplate.pkcs8(rawPrivateKey: raw, publicKey: publicKey.parameters) {
            return der
        }
        return try key.pkcs8()
    }

    /// Signs a message.
    ///
    /// - Parameter message: the bytes to sign (for an assertion,
    ///   `authenticatorData ‖ SHA-256(clientDataJSON)`, WebAuthn L3 §6.3.3).
    /// - Returns: for ES256 a DER `Ecdsa-Sig-Value` over SHA-256 (WebAuthn L3 §6.5.6); for EdDSA
    ///   the 64-byte Ed25519 signature.
    /// - Throws: `WebAuthnError` with `crypto-failure` if OpenSSL fails.
    public func signature(for message: some Collection<UInt8>) throws(WebAuthnError) -> [UInt8] {
        try key.signature(for: message, algorithm: algorithm)
    }

    /// Signs a message so that the same key and message always give the same signature: what
    /// seeded mode signs with, so that a seeded ceremony's response is the same from run to run.
    ///
    /// ES256 takes its nonce from RFC 6979 §3.2 (HMAC-SHA-256 DRBG over the private scalar and
    /// the digest) instead of OpenSSL's random one; as with ``signature(for:)``, `s` is not moved
    /// to the low half (WebAuthn asks for neither). EdDSA (RFC 8032 §5.1.6) and RS256 (PKCS #1
    /// v1.5, RFC 8017 §8.2) are deterministic by construction and sign as ``signature(for:)``
    /// does.
    ///
    /// - Parameter message: the bytes to sign.
    /// - Returns: the signature, in the same form as ``signature(for:)``.
    /// - Throws: `WebAuthnError` with `unsupported-algorithm` for PS256, whose salt is random
    ///   (RFC 8017 §9.1.1) and which OpenSSL cannot take from outside; `crypto-failure` if
    ///   OpenSSL fails.
    public func deterministicSignature(for message: some Collection<UInt8>) throws(WebAuthnError) -> [UInt8] {
        switch algorithm {
        case .es256:
            return try key.deterministicECDSASignature(for: message, curve: .p256)
        case .ps256:
            throw WebAuthnError(.unsupportedAlgorithm, "PS256 signatures carry a random salt")
        default:
            return try signature(for: message)
        }
    }

    public var description: String { "SigningKey(\(algorithm), <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }

    private static func signingCurve(_ algorithm: COSEAlgorithm) throws(WebAuthnError) -> COSECurve {
        switch algorithm {
        case .es256: .p256
        case .eddsa: .ed25519
        default: throw WebAuthnError(.unsupportedAlgorithm, "SigningKey signs with ES256 or EdDSA, not \(algorithm)")
        }
    }
}

extension SigningKey {
    /// Test seam: a fresh key for any algorithm ``COSEKey`` verifies, including ones this library
    /// never signs with (P-384, P-521, Ed448 with `curve: .ed448`, RSA-2048 for RS*/PS*), so every
    /// verification path can be tested against keys OpenSSL made.
    package static func generateForTesting(_ algorithm: COSEAlgorithm, curve: COSECurve? = nil) throws(WebAuthnError)
        -> SigningKey
    {
        let key: EVPKey
        switch algorithm {
        case .es256: key = try EVPKey.generate(curve: .p256)
        case .es384: key = try EVPKey.generate(curve: .p384)
        case .es512: key = try EVPKey.generate(curve: .p521)
        case .eddsa: key = try EVPKey.generate(curve: curve ?? .ed25519)
        case .ed25519: key = try EVPKey.generate(curve: .ed25519)
        case .ed448: key = try EVPKey.generate(curve: .ed448)
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512, .rs1: key = try EVPKey.generateRSA(bits: 2048)
        case .ecdhESHKDF256: throw WebAuthnError(.unsupportedAlgorithm, "\(algorithm) does not sign")
        }
        return try SigningKey(algorithm: algorithm, key: key)
    }
}
