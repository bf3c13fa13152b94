import WebAuthn

/// JWK thumbprints (RFC 7638): what binds a token to a DPoP key (`cnf.jkt`, RFC 9449 §6.1) and an
/// authorization code to one (`dpop_jkt`, §10).
///
/// The thumbprint of an EC key is the SHA-256 of its required members in lexicographic order,
/// without whitespace (RFC 7638 §3.2, §3.3):
///
/// ```
/// BASE64URL(SHA-256({"crv":"P-256","kty":"EC","x":"…","y":"…"}))
/// ```
public enum JWKThumbprint {
    /// The thumbprint of a P-256 public key.
    ///
    /// - Parameters:
    ///   - x: the `x` member, base64url as the JWK carries it.
    ///   - y: the `y` member, base64url.
    /// - Returns: the thumbprint, base64url without padding (43 characters).
    public static func p256(x: String, y: String) -> String {
        // base64url text needs no JSON escaping, so the members go in as they are.
        let members = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        return Base64URL.encode(SHA256Digest.hash(Array(members.utf8)))
    }
}
