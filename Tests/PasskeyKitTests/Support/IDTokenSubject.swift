import Auth0Passkeys
import FoundationEssentials
import Testing

/// The `sub` of `credentials`' ID token, read without checking its signature: which user logged
/// in, for comparing two logins.
///
/// - Throws: when the ID token is not a JWT or its payload not claims.
func subject(_ credentials: Credentials) throws -> String? {
    let token = try #require(UnverifiedJWT(credentials.idToken))
    return try JSONDecoder().decode(IDTokenClaims.self, from: Data(token.payload)).subject
}
