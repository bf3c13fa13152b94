import Crypto
import WebAuthn

/// A DPoP key: an ES256 key pair on P-256 (RFC 9449 §4.2, RFC 7518 §3.4), the key Auth0.swift
/// makes for `useDPoP()` (spec §16.2). swift-crypto makes it, holds it and signs with it.
///
/// Its public half goes into every proof's header as a JWK:
///
/// ```
/// {"kty":"EC","crv":"P-256","x":BASE64URL(x, 32 bytes),"y":BASE64URL(y, 32 bytes)}
/// ```
///
/// and its RFC 7638 thumbprint (``thumbprint``) is the `cnf.jkt` of every token bound to it and
/// the `dpop_jkt` of an authorization request. The private key leaves the value only as raw bytes
/// for the session's sealed entry (``CredentialsManager``); `description` names the thumbprint
/// and the mirror is empty, so neither shows it.
public struct DPoPKey: Sendable, CustomStringConvertible, CustomReflectable {
    private let privateKey: P256.Signing.PrivateKey

    /// The public key's `x` coordinate, base64url without padding.
    public let x: String
    /// The public key's `y` coordinate, base64url without padding.
    public let y: String

    private init(_ privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
        // x963 is 0x04 ‖ x (32) ‖ y (32) for P-256 (SEC 1 §2.3.3).
        let point = Array(privateKey.publicKey.x963Representation)
        x = Base64URL.encode(point[1..<33])
        y = Base64URL.encode(point[33...])
    }

    /// Makes a new random key.
    ///
    /// - Returns: the key.
    public static func generate() -> DPoPKey {
        DPoPKey(P256.Signing.PrivateKey())
    }

    /// Takes a key back from ``rawRepresentation``: what a sealed session holds.
    ///
    /// - Parameter rawRepresentation: the 32-byte big-endian scalar `d` (SEC 1 §2.3.6).
    /// - Throws: ``DPoPError/Code/invalidKey`` for a wrong length or a scalar out of range.
    package init(rawRepresentation: [UInt8]) throws(DPoPError) {
        do {
            self.init(try P256.Signing.PrivateKey(rawRepresentation: rawRepresentation))
        } catch {
            throw DPoPError(.invalidKey, "the stored DPoP key is not a P-256 private key")
        }
    }

    /// The private scalar, for the session's sealed entry only.
    package var rawRepresentation: [UInt8] { Array(privateKey.rawRepresentation) }

    /// The RFC 7638 thumbprint of the public key (spec §16.4): `cnf.jkt`, `dpop_jkt`.
    public var thumbprint: String { JWKThumbprint.p256(x: x, y: y) }

    /// Signs a JWS signing input with ES256.
    ///
    /// - Parameter message: `BASE64URL(header) '.' BASE64URL(payload)` (RFC 7515 §5.1).
    /// - Returns: the raw 64-byte `r ‖ s` (RFC 7518 §3.4), not DER.
    /// - Throws: ``DPoPError/Code/signingFailed`` if swift-crypto fails.
    func signature(for message: [UInt8]) throws(DPoPError) -> [UInt8] {
        do {
            return Array(try privateKey.signature(for: message).rawRepresentation)
        } catch {
            throw DPoPError(.signingFailed, "the DPoP proof could not be signed", cause: error)
        }
    }

    /// Whether two values hold the same key: their public keys are equal.
    func isSameKey(as other: DPoPKey) -> Bool {
        x == other.x && y == other.y
    }

    public var description: String { "DPoPKey(ES256, jkt: \(thumbprint))" }

    public var customMirror: Mirror { Mirror(self, children: []) }
}
