import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import PasskeyTenant
import WebAuthn

/// A client's DPoP key (RFC 9449) in the tenant's tests: real ES256 proofs signed with jwt-kit,
/// the `jwk` header the public key, each part changeable so a test can break exactly one thing.
struct DPoPProver: Sendable {
    let key: ES256PrivateKey
    let x: String
    let y: String

    init() throws {
        key = ES256PrivateKey()
        guard let parameters = key.publicKey.parameters else { throw ProverError.noPublicKey }
        x = parameters.x
        y = parameters.y
    }

    /// The public key as a JWK (RFC 7518 §6.2.1).
    var jwk: [String: JWTHeaderField] {
        ["kty": "EC", "crv": "P-256", "x": .string(x), "y": .string(y)]
    }

    /// The RFC 7638 thumbprint, computed here independently of the tenant.
    var thumbprint: String { Self.thumbprint(x: x, y: y) }

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
        var fields: [String: JWTHeaderField] = ["typ": "dpop+jwt", "alg": "ES256", "jwk": .object(jwk)]
        for (name, value) in changes { fields[name] = value == .null ? nil : value }
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key)
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
    static func unsigned(header: String, claims: ProofClaims) throws -> String {
        let payload = try JSONEncoder().encode(claims)
        return Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload)) + ".c2lnbmF0dXJl"
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
