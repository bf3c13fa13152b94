import WebAuthn

/// A PKCE proof key (RFC 7636): the secret `code_verifier` a Web Auth login keeps, and the
/// `code_challenge` it sends to `/authorize`.
///
/// As Auth0.swift makes it (spec §14.1): the verifier is 32 random bytes in base64url without
/// padding (43 characters, §4.1: 43 to 128 unreserved characters, 256 bits of entropy), the
/// challenge `BASE64URL(SHA256(ASCII(code_verifier)))` with method `S256` (§4.2), the only one
/// Auth0 accepts.
struct ProofKey: Sendable, CustomStringConvertible {
    /// The `code_verifier`; sent once, in the code exchange.
    let verifier: String

    /// A new random verifier.
    init() {
        self.init(verifier: Base64URL.encode(SecureRandom.bytes(32)))
    }

    /// A known verifier (RFC 7636 Appendix B's, in the tests).
    init(verifier: String) {
        self.verifier = verifier
    }

    /// The `code_challenge` of ``verifier`` (RFC 7636 §4.2, `S256`).
    var challenge: String { Base64URL.encode(SHA256Digest.hash(Array(verifier.utf8))) }

    /// The `code_challenge_method`.
    static let method = "S256"

    /// Never the verifier.
    var description: String { "ProofKey(S256)" }
}
