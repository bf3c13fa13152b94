import JWTKit
import WebAuthn

/// The public key a DPoP proof carries in its `jwk` header (RFC 9449 §4.2; RFC 7517), one of the
/// three kinds the tenant verifies, each with the one `alg` that goes with it:
///
/// | `alg` | `jwk` |
/// |---|---|
/// | `ES256` | `{"kty":"EC","crv":"P-256","x":…,"y":…}` (RFC 7518 §6.2.1), x and y 32 bytes each |
/// | `EdDSA` | `{"kty":"OKP","crv":"Ed25519","x":…}` (RFC 8037 §2), x 32 bytes |
/// | `RS256` | `{"kty":"RSA","n":…,"e":…}` (RFC 7518 §6.3.1), a modulus of 2048 bits or more |
///
/// `none` and the symmetric `HS*` are never accepted (RFC 9449 §4.3 step 5), nor a `jwk` with a
/// private member (step 7).
enum DPoPKey: Sendable, Hashable {
    case p256(x: String, y: String)
    case ed25519(x: String)
    case rsa(n: String, e: String)

    /// The `alg` values accepted, as discovery lists them (`dpop_signing_alg_values_supported`).
    static let algorithms = ["ES256", "EdDSA", "RS256"]

    /// The key of a proof's `jwk` header, checked against its `alg`.
    ///
    /// - Returns: nil for an algorithm the tenant does not accept, a key of another type or curve,
    ///   a private member, or coordinates of the wrong size.
    init?(_ jwk: DPoPJWK, alg: String) {
        guard !jwk.hasPrivateMembers else { return nil }
        switch (alg, jwk.kty, jwk.crv) {
        case ("ES256", "EC", "P-256"):
            guard let x = jwk.x, let y = jwk.y, Self.length(x) == 32, Self.length(y) == 32 else { return nil }
            self = .p256(x: x, y: y)
        case ("EdDSA", "OKP", "Ed25519"):
            guard let x = jwk.x, Self.length(x) == 32 else { return nil }
            self = .ed25519(x: x)
        case ("RS256", "RSA", nil):
            guard let n = jwk.n, let e = jwk.e, (Self.length(n) ?? 0) >= 256, (Self.length(e) ?? 0) > 0 else {
                return nil
            }
            self = .rsa(n: n, e: e)
        default:
            return nil
        }
    }

    /// The JWK thumbprint (RFC 7638 §3, WebAuthn's `JWKThumbprint`, the client's too): a
    /// DPoP-bound token's `cnf.jkt` (RFC 9449 §6.1) and `/authorize`'s `dpop_jkt` (§10).
    var thumbprint: String {
        switch self {
        case .p256(let x, let y): JWKThumbprint.p256(x: x, y: y)
        case .ed25519(let x): JWKThumbprint.ed25519(x: x)
        case .rsa(let n, let e): JWKThumbprint.rsa(n: n, e: e)
        }
    }

    /// Checks the compact JWS's signature with this key (through jwt-kit) and decodes its claims.
    ///
    /// - Returns: nil when the signature does not verify or the claims do not decode.
    func verify(_ compact: String) async -> DPoPProofClaims? {
        let keys = JWTKeyCollection()
        do {
            switch self {
            case .p256(let x, let y):
                await keys.add(ecdsa: try ES256PublicKey(parameters: (x: x, y: y)))
            case .ed25519(let x):
                await keys.add(eddsa: try EdDSA.PublicKey(x: x, curve: .ed25519))
            case .rsa(let n, let e):
                await keys.add(rsa: try Insecure.RSA.PublicKey(modulus: n, exponent: e), digestAlgorithm: .sha256)
            }
            return try await keys.verify(compact, as: DPoPProofClaims.self)
        } catch {
            return nil
        }
    }

    /// The decoded length of a base64url member, or nil when it is not unpadded base64url.
    private static func length(_ text: String) -> Int? {
        guard !text.contains("=") else { return nil }
        return try? Base64URL.decode(text).count
    }
}

/// A proof's `jwk` header as sent: the public members the tenant reads, and whether any private
/// member (`d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`, `k`: RFC 7518 §6.2.2, §6.3.2, §6.4) is there.
struct DPoPJWK: Sendable, Hashable, Decodable {
    var kty: String
    var crv: String?
    var x: String?
    var y: String?
    var n: String?
    var e: String?
    var hasPrivateMembers: Bool

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kty, crv, x, y, n, e
        case d, p, q, dp, dq, qi, oth, k
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kty = try container.decode(String.self, forKey: .kty)
        crv = try container.decodeIfPresent(String.self, forKey: .crv)
        x = try container.decodeIfPresent(String.self, forKey: .x)
        y = try container.decodeIfPresent(String.self, forKey: .y)
        n = try container.decodeIfPresent(String.self, forKey: .n)
        e = try container.decodeIfPresent(String.self, forKey: .e)
        hasPrivateMembers = [CodingKeys.d, .p, .q, .dp, .dq, .qi, .oth, .k].contains(where: container.contains)
    }
}
