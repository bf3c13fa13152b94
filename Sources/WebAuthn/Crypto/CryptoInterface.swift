// INTERFACE STUB — the crypto helper replaces this file with real types in Crypto/ (public API
// in `X.swift`, OpenSSL in `X+libcrypto.swift`), keeping every signature below.

public import FoundationEssentials

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
