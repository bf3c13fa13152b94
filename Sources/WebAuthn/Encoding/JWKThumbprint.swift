/// JWK thumbprints (RFC 7638): what binds a token to a DPoP key (`cnf.jkt`, RFC 9449 §6.1) and an
/// authorization code to one (`dpop_jkt`, §10), and what names the tenant's signing key (`kid`).
///
/// The one implementation for the Auth0 client and the local tenant, here because both import
/// this module. A thumbprint is the SHA-256 of the key's required members in lexicographic
/// order, without whitespace (RFC 7638 §3.2, §3.3):
///
/// ```
/// EC  (RFC 7518 §6.2.1)  BASE64URL(SHA-256({"crv":"P-256","kty":"EC","x":"…","y":"…"}))
/// OKP (RFC 8037 §2)      BASE64URL(SHA-256({"crv":"Ed25519","kty":"OKP","x":"…"}))
/// RSA (RFC 7518 §6.3.1)  BASE64URL(SHA-256({"e":"…","kty":"RSA","n":"…"}))
/// ```
///
/// The members go in as the JWK carries them (base64url), which needs no JSON escaping.
public enum JWKThumbprint {
    /// The thumbprint of a P-256 public key.
    ///
    /// - Parameters:
    ///   - x: the `x` member, base64url as the JWK carries it.
    ///   - y: the `y` member, base64url.
    /// - Returns: the thumbprint, base64url without padding (43 characters).
    public static func p256(x: String, y: String) -> String {
        digest(#"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#)
    }

    /// The thumbprint of an Ed25519 public key (RFC 8037 §2).
    ///
    /// - Parameter x: the `x` member, base64url.
    /// - Returns: the thumbprint, base64url without padding.
    public static func ed25519(x: String) -> String {
        digest(#"{"crv":"Ed25519","kty":"OKP","x":"\#(x)"}"#)
    }

    /// The thumbprint of an RSA public key.
    ///
    /// - Parameters:
    ///   - n: the modulus member, base64url.
    ///   - e: the exponent member, base64url.
    /// - Returns: the thumbprint, base64url without padding.
    public static func rsa(n: String, e: String) -> String {
        digest(#"{"e":"\#(e)","kty":"RSA","n":"\#(n)"}"#)
    }

    /// BASE64URL(SHA-256(members)).
    private static func digest(_ members: String) -> String {
        Base64URL.encode(SHA256Digest.hash(Array(members.utf8)))
    }
}
