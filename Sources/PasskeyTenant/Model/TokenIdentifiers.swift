import WebAuthn

/// The token identifiers a grant issues with, chosen before the grant is recorded, so that a
/// replayed authorization code can revoke what its first redemption issued (RFC 6749 §4.1.2).
struct TokenIdentifiers: Sendable, Hashable {
    /// The access token's `jti`.
    var accessTokenID: String
    /// The refresh token family, when one is issued.
    var refreshFamily: String

    /// New random identifiers.
    static func random() -> TokenIdentifiers {
        TokenIdentifiers(
            accessTokenID: Base64URL.encode(SecureRandom.bytes(16)),
            refreshFamily: Base64URL.encode(SecureRandom.bytes(16)))
    }
}
