import Crypto
import JWTKit
import WebAuthn

/// A DPoP key: an ES256 key pair on P-256 (RFC 9449 §4.2, RFC 7518 §3.4), the key Auth0.swift
/// makes for `useDPoP()` (spec §16.2). swift-crypto makes and holds it; jwt-kit, the package's one
/// JWS implementation, gives its JWK members and signs the proofs (``DPoPProof``).
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
    /// The same key as jwt-kit's ES256 key, which signs.
    private let signingKey: ES256PrivateKey

    /// The public key's `x` coordinate, base64url without padding.
    public let x: String
    /// The public key's `y` coordinate, base64url without padding.
    public let y: String

    private init(_ privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
        // A P-256 key's own scalar always loads as a P-256 key.
        signingKey = try! ES256PrivateKey(backing: privateKey)
        // jwt-kit derives both coordinates from the key (RFC 7518 §6.2.1.2, §6.2.1.3): never nil.
        let parameters = signingKey.parameters ?? (x: "", y: "")
        x = parameters.x
        y = parameters.y
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

    /// The RFC 7638 thumbprint of the public key (spec §16.4): `cnf.jkt`, `dpop_jkt`; WebAuthn's
    /// `JWKThumbprint`, the tenant's too.
    public var thumbprint: String { JWKThumbprint.p256(x: x, y: y) }

    /// The proof header of this key (RFC 9449 §4.2), members in Auth0.swift's order:
    /// `{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":…,"y":…}}`.
    var proofHeader: [UInt8] {
        var writer = JSONWriter(capacity: 160)
        writer.object { header in
            header.member("typ", "dpop+jwt")
            header.member("alg", "ES256")
            header.key("jwk")
            header.object { jwk in
                jwk.member("kty", "EC")
                jwk.member("crv", "P-256")
                jwk.member("x", x)
                jwk.member("y", y)
            }
        }
        return writer.bytes
    }

    /// Signs a proof with ES256 through jwt-kit: ``proofHeader``, the claims, and the raw 64-byte
    /// `r ‖ s` (RFC 7518 §3.4), not DER.
    ///
    /// - Parameter claims: the proof's claims.
    /// - Returns: the proof in compact serialization (RFC 7515 §7.1).
    /// - Throws: ``DPoPError/Code/signingFailed`` if jwt-kit fails.
    func sign(_ claims: DPoPProofClaims) async throws(DPoPError) -> String {
        do {
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: signingKey, serializer: DPoPProofSerializer(header: proofHeader))
            return try await keys.sign(claims)
        } catch {
            throw DPoPError(.signingFailed, "the DPoP proof could not be signed", cause: error)
        }
    }

    public var description: String { "DPoPKey(ES256, jkt: \(thumbprint))" }

    public var customMirror: Mirror { Mirror(self, children: []) }
}
