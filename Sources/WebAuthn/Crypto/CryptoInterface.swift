// INTERFACE STUB — the crypto helper replaces this file with real types in Crypto/ (public API
// in `X.swift`, OpenSSL in `X+libcrypto.swift`), keeping every signature below.

public import FoundationEssentials

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
