public import FoundationEssentials
import JWTKit
import WebAuthn

/// A DPoP proof: the JWT a client sends in the `DPoP` header to show it holds the key a token is,
/// or will be, bound to (RFC 9449 §4.2), built as Auth0.swift builds it (spec §16.2).
///
/// ```
/// header  = {"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":…,"y":…}}
/// payload = {"htm":"GET","htu":"https://login.example.com/userinfo","jti":UUID,"iat":seconds,
///            "nonce":…,              ; when the server gave one (§8, §9)
///            "ath":BASE64URL(SHA-256(access token))}   ; when the request carries one (§4.2)
/// proof   = BASE64URL(header) "." BASE64URL(payload) "." BASE64URL(r ‖ s)
/// ```
///
/// `htm` is the method in upper case, `htu` the URL without its query and fragment (§4.3 step
/// 9), `jti` a new UUID for each proof, `iat` whole seconds. The signature is ES256's raw
/// 64-byte `r ‖ s` (RFC 7518 §3.4), made by jwt-kit (``DPoPKey``); the header and the claims are
/// written in Auth0.swift's member order, which jwt-kit's own serializer does not keep.
public struct DPoPProof: Sendable, CustomStringConvertible {
    /// The proof in compact serialization, for the `DPoP` header.
    public let compact: String

    /// Builds and signs a proof.
    ///
    /// - Parameters:
    ///   - key: the key to sign with, whose public half goes in the header.
    ///   - method: the request's method.
    ///   - url: the request's absolute URL; its query and fragment are left out of `htu`.
    ///   - accessToken: the access token the request carries, for `ath`; `nil` for none.
    ///   - nonce: the server's last `DPoP-Nonce`, or `nil`.
    ///   - jti: the proof's unique ID; a new UUID by default.
    ///   - issuedAt: the proof's time; now by default.
    /// - Throws: ``DPoPError`` with `invalidURL` or `signingFailed`.
    public init(
        key: DPoPKey, method: String, url: String, accessToken: String? = nil, nonce: String? = nil,
        jti: String = UUID().uuidString, issuedAt: Date = Date()
    ) async throws(DPoPError) {
        guard let htu = Self.htu(url) else {
            throw DPoPError(.invalidURL, "a DPoP proof needs an absolute http or https URL")
        }
        let iat = Int(issuedAt.timeIntervalSince1970.rounded(.down))
        compact = try await key.sign(
            DPoPProofClaims(
                htm: method.uppercased(), htu: htu, jti: jti, iat: iat, nonce: nonce,
                ath: accessToken.map(Self.accessTokenHash)))
    }

    /// `ath`: BASE64URL(SHA-256(ASCII(access token))) (RFC 9449 §4.2).
    ///
    /// - Parameter accessToken: the access token.
    /// - Returns: the hash, base64url without padding.
    public static func accessTokenHash(_ accessToken: String) -> String {
        Base64URL.encode(SHA256Digest.hash(Array(accessToken.utf8)))
    }

    /// `htu`: the URL without query and fragment (RFC 9449 §4.2, §4.3 step 9); `nil` unless it is
    /// an absolute `http` or `https` URL.
    static func htu(_ url: String) -> String? {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else { return nil }
        return String(url.prefix { $0 != "?" && $0 != "#" })
    }

    /// Never the proof: it is a credential for its one request.
    public var description: String { "DPoPProof(<redacted>)" }
}

/// A proof's claims (RFC 9449 §4.2), written in Auth0.swift's member order: `htm`, `htu`, `jti`,
/// `iat`, then `nonce` and `ath` when there are.
struct DPoPProofClaims: JWTPayload {
    let htm, htu, jti: String
    /// NumericDate seconds (RFC 7519 §2).
    let iat: Int
    /// `nil` members are left out.
    let nonce, ath: String?

    /// The payload's JSON, byte for byte the same each time.
    var json: [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.object { claims in
            claims.member("htm", htm)
            claims.member("htu", htu)
            claims.member("jti", jti)
            claims.member("iat", iat)
            if let nonce { claims.member("nonce", nonce) }
            if let ath { claims.member("ath", ath) }
        }
        return writer.bytes
    }

    /// Nothing to check: the client signs, the server verifies.
    func verify(using algorithm: some JWTAlgorithm) {}
}

/// jwt-kit's serializer for a proof: ``DPoPKey/proofHeader`` and ``DPoPProofClaims/json`` as
/// written, in Auth0.swift's member order, where jwt-kit's default serializer writes its header
/// dictionary in no fixed order. jwt-kit assembles the signing input and signs it.
struct DPoPProofSerializer: JWTSerializer {
    /// The header's JSON.
    let header: [UInt8]

    /// jwt-kit encodes the header through this; it is the key's fixed header.
    var jsonEncoder: any JWTJSONEncoder { FixedJSON(bytes: header) }

    func serialize(_ payload: some JWTPayload, header: JWTHeader) throws -> Data {
        guard let claims = payload as? DPoPProofClaims else {
            throw JWTError.generic(identifier: "dpop", reason: "a DPoP proof signs DPoPProofClaims only")
        }
        return Data(Base64URL.encode(claims.json).utf8)
    }

    /// An encoder whose output is the same JSON for any value: the header written beforehand.
    private struct FixedJSON: JWTJSONEncoder {
        let bytes: [UInt8]

        func encode<T: Encodable>(_ value: T) throws -> Data { Data(bytes) }
    }
}
