extension PasskeyTenant {
    /// How many tokens a login signs: an access token and an ID token.
    package static let tokensSignedPerLogin = 2

    /// Signs one throwaway access token with the tenant's key, so a benchmark can measure the
    /// RS256 ceiling of the logins it times.
    package func signSampleToken() async throws(TenantError) {
        let claims = AccessTokenClaims(
            iss: configuration.issuer, sub: "auth0|sample", aud: Audience([configuration.userInfoAudience]),
            azp: clientID, scope: "openid", iat: 0, exp: 0, jti: "sample", orgID: nil)
        _ = try await signer.sign(claims)
    }
}
