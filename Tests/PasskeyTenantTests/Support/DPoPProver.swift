import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import PasskeyTenant
import TestSupport
import WebAuthn

/// A client's DPoP key (RFC 9449) in the tenant's tests: real proofs signed with jwt-kit, ES256
/// by default (EdDSA and RS256 too), the `jwk` header the public key, each part changeable so a
/// test can break exactly one thing.
struct DPoPProver: Sendable {
    /// The proof's `alg`.
    let alg: String
    /// The public key as a JWK (RFC 7518 §6.2.1, §6.3.1; RFC 8037 §2).
    let jwk: [String: JWTHeaderField]
    /// The RFC 7638 thumbprint, computed here independently of the tenant.
    let thumbprint: String
    private let keys: JWTKeyCollection

    /// A new P-256 key (ES256).
    init() async throws {
        let key = ES256PrivateKey()
        guard let parameters = key.publicKey.parameters else { throw ProverError.noPublicKey }
        alg = "ES256"
        jwk = ["kty": "EC", "crv": "P-256", "x": .string(parameters.x), "y": .string(parameters.y)]
        thumbprint = Self.thumbprint(x: parameters.x, y: parameters.y)
        keys = JWTKeyCollection()
        await keys.add(ecdsa: key)
    }

    private init(alg: String, jwk: [String: JWTHeaderField], thumbprint: String, keys: JWTKeyCollection) {
        self.alg = alg
        self.jwk = jwk
        self.thumbprint = thumbprint
        self.keys = keys
    }

    /// RFC 8037 Appendix A.1's Ed25519 key (EdDSA).
    static func ed25519() async throws -> DPoPProver {
        let x = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"
        let keys = JWTKeyCollection()
        await keys.add(eddsa: try EdDSA.PrivateKey(d: "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A", curve: .ed25519))
        let members = #"{"crv":"Ed25519","kty":"OKP","x":"\#(x)"}"#
        return DPoPProver(
            alg: "EdDSA", jwk: ["kty": "OKP", "crv": "Ed25519", "x": .string(x)],
            thumbprint: Base64URL.encode(SHA256Digest.hash(Array(members.utf8))), keys: keys)
    }

    /// The fixture RSA key (RS256).
    static func rs256() async throws -> DPoPProver {
        let key = try Insecure.RSA.PrivateKey(pem: FixtureSigningKey.pem)
        let (modulus, exponent) = try key.publicKey.getKeyPrimitives()
        let n = Base64URL.encode(modulus)
        let e = Base64URL.encode(exponent)
        let keys = JWTKeyCollection()
        await keys.add(rsa: key, digestAlgorithm: .sha256)
        let members = #"{"e":"\#(e)","kty":"RSA","n":"\#(n)"}"#
        return DPoPProver(
            alg: "RS256", jwk: ["kty": "RSA", "n": .string(n), "e": .string(e)],
            thumbprint: Base64URL.encode(SHA256Digest.hash(Array(members.utf8))), keys: keys)
    }

    /// RFC 7638 §3 for a P-256 key: the required members in lexicographic order, no white space.
    static func thumbprint(x: String, y: String) -> String {
        let members = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        return Base64URL.encode(SHA256Digest.hash(Array(members.utf8)))
    }

    /// `ath`: base64url(SHA-256(access token)).
    static func ath(_ token: String) -> String {
        Base64URL.encode(SHA256Digest.hash(Array(token.utf8)))
    }

    /// A signed proof for `method` and `url`, issued at `iat`; `header` entries replace the
    /// standard `typ`, `alg` and `jwk` (a `.null` removes one).
    func proof(
        _ method: String, _ url: String, iat: Date, accessToken: String? = nil, nonce: String? = nil,
        jti: String = UUID().uuidString, header changes: [String: JWTHeaderField] = [:]
    ) async throws -> String {
        var fields: [String: JWTHeaderField] = ["typ": "dpop+jwt", "alg": .string(alg), "jwk": .object(jwk)]
        for (name, value) in changes { fields[name] = value == .null ? nil : value }
        return try await keys.sign(
            claims(method, url, iat: iat, accessToken: accessToken, nonce: nonce, jti: jti),
            header: JWTHeader(fields: fields))
    }

    /// The proof's claims.
    func claims(
        _ method: String, _ url: String, iat: Date, accessToken: String? = nil, nonce: String? = nil,
        jti: String = UUID().uuidString
    ) -> ProofClaims {
        ProofClaims(
            jti: jti, htm: method, htu: url, iat: Int(iat.timeIntervalSince1970),
            ath: accessToken.map(Self.ath), nonce: nonce)
    }

    /// A JWS of `header` and `claims` whose signature is not made by this key: for `alg` values the
    /// tenant must refuse before checking any signature.
    static func unsigned(header: JWTHeader, claims: ProofClaims) throws -> String {
        let encoder = JSONEncoder()
        return Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
            + ".c2lnbmF0dXJl"
    }

    enum ProverError: Error {
        case noPublicKey
    }
}

/// A DPoP proof's claims (RFC 9449 §4.2).
struct ProofClaims: JWTPayload {
    var jti: String
    var htm: String
    var htu: String
    var iat: Int
    var ath: String?
    var nonce: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

extension HTTPField.Name {
    static let dpop = HTTPField.Name("DPoP")!
    static let dpopNonce = HTTPField.Name("DPoP-Nonce")!
}

extension TestClientProtocol {
    /// `GET path` (or `method`) with `Authorization: <scheme> <token>` and, when given, a `DPoP` proof.
    func call(
        _ path: String, method: HTTPRequest.Method = .get, scheme: String = "DPoP", token: String, proof: String?,
        headers: HTTPFields = [:]
    ) async throws -> HTTPResult {
        var headers = headers
        headers[.authorization] = "\(scheme) \(token)"
        if let proof { headers[.dpop] = proof }
        return try await send(method, path, contentType: nil, headers: headers)
    }
}
