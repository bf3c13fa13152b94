/// The tenant's signing keys, from `GET /.well-known/jwks.json` (spec §6.5; RFC 7517 §5).
public struct JWKS: Sendable, Hashable, Decodable {
    /// One public key (RFC 7517 §4): an RSA key has `n` and `e`; an EC key `crv`, `x` and `y`.
    public struct Key: Sendable, Hashable, Decodable {
        /// `kty`: `RSA` or `EC`.
        public let keyType: String
        /// `kid`: the ID a JWT header names.
        public let keyID: String?
        /// `use`: `sig`.
        public let use: String?
        /// `alg`: `RS256`.
        public let algorithm: String?
        /// `n`: the RSA modulus, base64url.
        public let modulus: String?
        /// `e`: the RSA exponent, base64url.
        public let exponent: String?
        /// `x5c`: the certificate chain, standard base64 DER.
        public let certificateChain: [String]?

        private enum CodingKeys: String, CodingKey {
            case keyType = "kty"
            case keyID = "kid"
            case use
            case algorithm = "alg"
            case modulus = "n"
            case exponent = "e"
            case certificateChain = "x5c"
        }
    }

    /// `keys`.
    public let keys: [Key]

    /// The key with this `kid`.
    ///
    /// - Parameter id: the `kid` of a JWT header.
    /// - Returns: the key, or `nil`.
    public func key(id: String) -> Key? {
        keys.first { $0.keyID == id }
    }
}
