public import FoundationEssentials
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
/// 64-byte `r ‖ s` (RFC 7518 §3.4).
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
    ) throws(DPoPError) {
        guard let htu = Self.htu(url) else {
            throw DPoPError(.invalidURL, "a DPoP proof needs an absolute http or https URL")
        }
        let header = Header(jwk: JWK(x: key.x, y: key.y))
        let payload = Payload(
            htm: method.uppercased(), htu: htu, jti: jti, iat: Int(issuedAt.timeIntervalSince1970.rounded(.down)),
            nonce: nonce, ath: accessToken.map(Self.accessTokenHash))
        let signingInput = Self.segment(header) + "." + Self.segment(payload)
        let signature = try key.signature(for: Array(signingInput.utf8))
        compact = signingInput + "." + Base64URL.encode(signature)
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

    private static func segment(_ value: some Encodable) -> String {
        // The header and payload hold only strings and an integer: they always encode.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let data = (try? encoder.encode(value)) ?? Data()
        return Base64URL.encode(Array(data))
    }

    /// The JOSE header (RFC 9449 §4.2), members in Auth0.swift's order.
    private struct Header: Encodable {
        let typ = "dpop+jwt"
        let alg = "ES256"
        let jwk: JWK

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(typ, forKey: .typ)
            try container.encode(alg, forKey: .alg)
            try container.encode(jwk, forKey: .jwk)
        }

        private enum CodingKeys: String, CodingKey {
            case typ, alg, jwk
        }
    }

    /// The public key as a JWK (RFC 7518 §6.2.1).
    private struct JWK: Encodable {
        let x: String
        let y: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("EC", forKey: .kty)
            try container.encode("P-256", forKey: .crv)
            try container.encode(x, forKey: .x)
            try container.encode(y, forKey: .y)
        }

        private enum CodingKeys: String, CodingKey {
            case kty, crv, x, y
        }
    }

    /// The claims (RFC 9449 §4.2); `nonce` and `ath` omitted when `nil`.
    private struct Payload: Encodable {
        let htm: String
        let htu: String
        let jti: String
        let iat: Int
        let nonce: String?
        let ath: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(htm, forKey: .htm)
            try container.encode(htu, forKey: .htu)
            try container.encode(jti, forKey: .jti)
            try container.encode(iat, forKey: .iat)
            try container.encodeIfPresent(nonce, forKey: .nonce)
            try container.encodeIfPresent(ath, forKey: .ath)
        }

        private enum CodingKeys: String, CodingKey {
            case htm, htu, jti, iat, nonce, ath
        }
    }
}
