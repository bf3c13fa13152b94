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
        let jwk = Self.object([
            ("kty", Self.string("EC")), ("crv", Self.string("P-256")), ("x", Self.string(key.x)),
            ("y", Self.string(key.y)),
        ])
        let header = Self.object([("typ", Self.string("dpop+jwt")), ("alg", Self.string("ES256")), ("jwk", jwk)])
        var claims = [
            ("htm", Self.string(method.uppercased())), ("htu", Self.string(htu)), ("jti", Self.string(jti)),
            ("iat", String(Int(issuedAt.timeIntervalSince1970.rounded(.down)))),
        ]
        if let nonce { claims.append(("nonce", Self.string(nonce))) }
        if let accessToken { claims.append(("ath", Self.string(Self.accessTokenHash(accessToken)))) }
        let signingInput =
            Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(Self.object(claims).utf8))
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

    /// A JSON object of members in the given order, compact: the header and payload in
    /// Auth0.swift's member order, byte for byte the same each time.
    private static func object(_ members: [(name: String, json: String)]) -> String {
        "{" + members.map { string($0.name) + ":" + $0.json }.joined(separator: ",") + "}"
    }

    /// A JSON string, escaped as JSON requires (a nonce or URL is the server's or the caller's).
    private static func string(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        // A String always encodes.
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
