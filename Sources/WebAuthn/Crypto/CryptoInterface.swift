// INTERFACE STUB — the crypto helper replaces this file with real types in Crypto/ (public API
// in `X.swift`, OpenSSL in `X+libcrypto.swift`), keeping every signature below.

public import FoundationEssentials

/// SHA-256 (FIPS 180-4).
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] { fatalError("stub") }
}

/// HMAC-SHA-256 (RFC 2104).
public enum HMACSHA256 {
    public static func authenticationCode(for message: some Collection<UInt8>, key: some Collection<UInt8>) -> [UInt8] {
        fatalError("stub")
    }
}

/// Cryptographically secure random bytes from OpenSSL's DRBG.
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] { fatalError("stub") }
}

/// A 256-bit symmetric key that wipes itself and never prints.
public struct SymmetricKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public init(bytes: [UInt8]) throws(WebAuthnError) { fatalError("stub") }
    public static func random() -> SymmetricKey { fatalError("stub") }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { fatalError("stub") }
    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// AES-256-GCM (NIST SP 800-38D): `nonce (12) ‖ ciphertext ‖ tag (16)`.
public enum AESGCM {
    public static func seal(
        _ plaintext: some Collection<UInt8>, using key: SymmetricKey, authenticating associatedData: some Collection<UInt8>
    ) throws(WebAuthnError) -> [UInt8] { fatalError("stub") }

    public static func open(
        _ sealed: some Collection<UInt8>, using key: SymmetricKey, authenticating associatedData: some Collection<UInt8>
    ) throws(WebAuthnError) -> [UInt8] { fatalError("stub") }
}

/// Key derivation functions.
public enum KDF {
    /// HKDF-SHA-256 (RFC 5869).
    public static func hkdfSHA256(
        inputKeyMaterial: some Collection<UInt8>, salt: some Collection<UInt8>, info: some Collection<UInt8>, length: Int
    ) -> [UInt8] { fatalError("stub") }

    /// scrypt (RFC 7914).
    public static func scrypt(
        password: some Collection<UInt8>, salt: some Collection<UInt8>, n: UInt64, r: UInt32, p: UInt32
    ) throws(WebAuthnError) -> SymmetricKey { fatalError("stub") }
}

/// A private signing key held by OpenSSL (ES256 on P-256, or EdDSA on Ed25519).
public struct SigningKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let algorithm: COSEAlgorithm
    public static func generate(_ algorithm: COSEAlgorithm) throws(WebAuthnError) -> SigningKey { fatalError("stub") }
    public init(rawRepresentation: some Collection<UInt8>, algorithm: COSEAlgorithm) throws(WebAuthnError) {
        fatalError("stub")
    }
    public init(sealedPKCS8: some Collection<UInt8>, using key: SymmetricKey, authenticating: some Collection<UInt8>)
        throws(WebAuthnError)
    { fatalError("stub") }
    public func sealedPKCS8(using key: SymmetricKey, authenticating: some Collection<UInt8>) throws(WebAuthnError)
        -> [UInt8]
    { fatalError("stub") }
    public var publicKey: COSEKey { fatalError("stub") }
    public func signature(for message: some Collection<UInt8>) throws(WebAuthnError) -> [UInt8] { fatalError("stub") }
    public var description: String { "SigningKey(<redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

extension COSEKey {
    public init(spki: some Collection<UInt8>, algorithm: COSEAlgorithm?) throws(WebAuthnError) { fatalError("stub") }
    public var spki: [UInt8] { get throws(WebAuthnError) { fatalError("stub") } }
    public func isValidSignature(_ signature: some Collection<UInt8>, for message: some Collection<UInt8>)
        throws(WebAuthnError) -> Bool
    { fatalError("stub") }
}

/// An X.509 certificate (RFC 5280) parsed by OpenSSL.
public struct Certificate: Sendable, Hashable {
    public let derBytes: [UInt8]
    public init(derEncoded: some Collection<UInt8>) throws(WebAuthnError) { fatalError("stub") }
    public static func certificates(pem: String) throws(WebAuthnError) -> [Certificate] { fatalError("stub") }
    public var version: Int { fatalError("stub") }
    public func subjectAttribute(_ shortName: String) -> String? { fatalError("stub") }
    public var notBefore: Date { fatalError("stub") }
    public var notAfter: Date { fatalError("stub") }
    public var isCertificateAuthority: Bool? { fatalError("stub") }
    public func extensionValue(oid: String) -> (critical: Bool, value: [UInt8])? { fatalError("stub") }
    public func publicKey(algorithm: COSEAlgorithm?) throws(WebAuthnError) -> COSEKey { fatalError("stub") }
    public static func verifyChain(
        leaf: Certificate, intermediates: [Certificate], trustAnchors: [Certificate], at time: Date
    ) throws(WebAuthnError) { fatalError("stub") }
}
