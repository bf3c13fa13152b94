import FoundationEssentials
import JWTKit
import WebAuthn

/// A DPoP proof that passed the checks of RFC 9449 §4.3 that need no state: its key and claims.
///
/// The wire form is a compact JWS in the request's `DPoP` header:
///
/// ```
/// header  {"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":…,"y":…}}
/// payload {"htm":"GET","htu":"https://DOMAIN/userinfo","jti":…,"iat":1747315800,
///          "nonce"?:…,"ath"?:base64url(SHA-256(access token))}
/// ```
///
/// ``check(_:method:urls:accessToken:now:)`` runs steps 2–9, 11 and 12 in order, one refusal
/// per step; the tenant adds the nonce (step 10) and `jti` replay checks, which need its state.
struct DPoPProof: Sendable, Hashable {
    /// The proof's public key.
    let key: DPoPKey
    /// Its signed claims.
    let claims: DPoPProofClaims

    /// How far `iat` may be from the tenant's clock, either way: 60 seconds.
    static let iatWindow: Double = 60

    /// Why a proof was refused, for the error's detail (never a secret: no token, no proof text).
    struct Refusal: Error, Sendable, Hashable {
        let reason: String
    }

    /// Checks a proof.
    ///
    /// - Parameters:
    ///   - compact: the `DPoP` header's value.
    ///   - method: the request's method; `htm` must equal it.
    ///   - urls: the URLs `htu` may name, already normalised (``normalisedURL(_:)``).
    ///   - accessToken: at a resource server, the access token the proof goes with; `ath` must be its hash.
    ///   - now: the tenant's clock.
    /// - Returns: the proof.
    /// - Throws: ``Refusal`` naming the failed check.
    static func check(
        _ compact: String, method: String, urls: [String], accessToken: Secret?, now: Date
    ) async throws(Refusal) -> DPoPProof {
        // jwt-kit's splitter, the one every JWS of the client and the tenant goes through.
        guard let parts = try? DefaultJWTParser().getTokenParts(Array(compact.utf8)),
            [parts.header, parts.payload, parts.signature].allSatisfy({ !$0.isEmpty && $0.allSatisfy(Self.isBase64URL) }
            )
        else {
            throw Refusal(reason: "The DPoP header is not one compact JWS.")
        }
        let header: DPoPProofHeader
        do {
            header = try WebAuthnJSON.decode(
                DPoPProofHeader.self, from: Base64URL.decode(String(decoding: parts.header, as: UTF8.self)))
        } catch {
            throw Refusal(reason: "The DPoP proof's header is not a JSON object with typ, alg and jwk.")
        }
        guard header.typ == "dpop+jwt" else { throw Refusal(reason: "The DPoP proof's typ is not dpop+jwt.") }
        guard DPoPKey.algorithms.contains(header.alg) else {
            throw Refusal(reason: "The DPoP proof's alg is not one of \(DPoPKey.algorithms.joined(separator: ", ")).")
        }
        guard !header.jwk.hasPrivateMembers else {
            throw Refusal(reason: "The DPoP proof's jwk holds a private key member.")
        }
        guard let key = DPoPKey(header.jwk, alg: header.alg) else {
            throw Refusal(reason: "The DPoP proof's jwk is not a public key for \(header.alg).")
        }
        guard let claims = await key.verify(compact) else {
            throw Refusal(
                reason: "The DPoP proof's signature does not verify with its jwk, or htm, htu, jti or iat is missing.")
        }
        guard claims.htm == method else { throw Refusal(reason: "The DPoP proof's htm is not \(method).") }
        guard let htu = normalisedURL(claims.htu), urls.contains(htu) else {
            throw Refusal(reason: "The DPoP proof's htu is not this request's URL.")
        }
        guard !claims.jti.isEmpty else { throw Refusal(reason: "The DPoP proof's jti is empty.") }
        let age = now.timeIntervalSince1970 - claims.iat
        guard age.magnitude <= iatWindow else {
            throw Refusal(
                reason: "The DPoP proof's iat is more than \(Int(iatWindow)) seconds from the tenant's clock.")
        }
        if let accessToken {
            guard let ath = claims.ath else { throw Refusal(reason: "The DPoP proof has no ath.") }
            guard ath == Base64URL.encode(SHA256Digest.hash(Array(accessToken.text.utf8))) else {
                throw Refusal(reason: "The DPoP proof's ath is not the hash of the access token.")
            }
        }
        return DPoPProof(key: key, claims: claims)
    }

    /// A URL compared as RFC 9449 §4.3 step 9 says (RFC 3986 §6.2.2, §6.2.3): query and fragment
    /// dropped, scheme and host lower-cased, the scheme's default port removed, an empty path `/`.
    ///
    /// - Returns: nil for a string that is not an absolute `http` or `https` URL.
    static func normalisedURL(_ text: String) -> String? {
        let withoutFragment = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let url = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let pathStart = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<pathStart].lowercased()
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        let defaultPort = scheme == "https" ? ":443" : ":80"
        if authority.hasSuffix(defaultPort) {
            authority.removeLast(defaultPort.count)
        }
        let path = rest[pathStart...]
        return "\(scheme)://\(authority)\(path.isEmpty ? "/" : path)"
    }

    /// Whether a byte is in the base64url alphabet (RFC 4648 §5), without padding.
    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}

/// A DPoP proof's JOSE header (RFC 9449 §4.2).
struct DPoPProofHeader: Sendable, Hashable, Decodable {
    var typ: String?
    var alg: String
    var jwk: DPoPJWK
}

/// A DPoP proof's claims (RFC 9449 §4.2): `jti`, `htm`, `htu`, `iat` required; `ath` with an
/// access token; `nonce` when the server asked for one.
struct DPoPProofClaims: JWTPayload, Hashable {
    var jti: String
    var htm: String
    var htu: String
    /// Seconds since 1970 (a NumericDate, RFC 7519 §2).
    var iat: Double
    var ath: String?
    var nonce: String?

    /// Nothing to check here: ``DPoPProof/check(_:method:urls:accessToken:now:)`` checks the
    /// claims against the request and the tenant's clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
