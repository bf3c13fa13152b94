import CryptoExtras
import FoundationEssentials
import JWTKit
import WebAuthn

/// Signs and verifies the tenant's JWTs with its one RS256 key (RFC 7518 §3.3), and publishes
/// the key as a JWK Set (RFC 7517 §5).
///
/// The `kid` is the key's JWK thumbprint (RFC 7638), so it is the same for every process that
/// opens the database and changes only with the key.
struct TokenSigner: Sendable {
    /// The key's ID, in every token header and in the JWKS.
    let keyID: String
    /// The public key as a JWK Set.
    let jwks: JSONWebKeySet
    private let keys: JWTKeyCollection

    /// Loads the key stored in the database; on first use, stores `given` (checked first), or a
    /// new 2048-bit key when none is given.
    static func load(from store: any TenantStore, given: Secret?) async throws(TenantError) -> TokenSigner {
        if let given {
            do {
                _ = try await TokenSigner(privateKeyPEM: given.text)
            } catch {
                throw TenantError(.serverError, status: 500, "the configured signing key does not load: \(error)")
            }
        }
        let pem = try await store.setting("signing_key") {
            try given?.text ?? _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation
        }
        do {
            return try await TokenSigner(privateKeyPEM: pem)
        } catch {
            throw TenantError(.serverError, status: 500, "the stored signing key does not load: \(error)")
        }
    }

    /// Creates a signer from a PKCS#1 or PKCS#8 PEM private key.
    init(privateKeyPEM pem: String) async throws {
        let key = try Insecure.RSA.PrivateKey(pem: pem)
        let (modulus, exponent) = try key.publicKey.getKeyPrimitives()
        let n = Base64URL.encode(modulus)
        let e = Base64URL.encode(exponent)
        keyID = JWKThumbprint.rsa(n: n, e: e)
        jwks = JSONWebKeySet(keys: [.init(kid: keyID, n: n, e: e)])
        keys = JWTKeyCollection()
        await keys.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: keyID))
    }

    /// Signs claims as a compact JWS with `alg` RS256 and this key's `kid`.
    func sign(_ claims: some JWTPayload) async throws(TenantError) -> String {
        do {
            return try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
        } catch {
            throw TenantError(.serverError, status: 500, "token signing failed: \(error)")
        }
    }

    /// Checks a token's signature and decodes its claims; the caller checks the claims.
    ///
    /// - Returns: nil when the token is not a JWS signed by this key.
    func verify<Claims: JWTPayload>(_ token: String, as type: Claims.Type) async -> Claims? {
        try? await keys.verify(token, as: type)
    }
}

/// A JWK Set of RSA signing keys, as `GET /.well-known/jwks.json` serves it (RFC 7517 §5).
struct JSONWebKeySet: Sendable, Hashable, Codable {
    /// One RSA public key (RFC 7518 §6.3.1).
    struct Key: Sendable, Hashable, Codable {
        var kty = "RSA"
        var use = "sig"
        var alg = "RS256"
        var kid: String
        var n: String
        var e: String
    }

    var keys: [Key]
}
