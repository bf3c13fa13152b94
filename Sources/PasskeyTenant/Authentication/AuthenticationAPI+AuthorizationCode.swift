import FoundationEssentials
import WebAuthn

extension AuthenticationAPI {
    /// The authorization code grant (RFC 6749 §4.1.3, RFC 7636 §4.5, §4.6; auth0-passkey-api.md
    /// §14.3): redeems a code of the login page once, checks that it was issued to the
    /// authenticated client (OpenID Connect Core 1.0 §3.1.3.2) for
    /// this redirect URI and that the verifier hashes to its challenge, and issues the tokens the
    /// `/authorize` request asked for, with its `nonce` and the ceremony's `auth_time`.
    ///
    /// A code is spent by its first use, whatever the outcome. A code used again is a replay: the
    /// refresh-token family and the access token its first use issued are revoked (RFC 6749
    /// §4.1.2, §10.5).
    ///
    /// - Throws: `invalid_request` for a missing `code`; `invalid_grant` (403) with
    ///   `Invalid authorization code` for an unknown, expired or spent code, `Failed to verify code
    ///   verifier` for a missing or wrong verifier (or one sent for a code a confidential client
    ///   asked for without PKCE), and for a code of another client or redirect URI.
    func exchangeCode(_ request: TokenRequest) async throws(TenantError) -> TokenResponse {
        guard let code = request.code else { throw .invalidRequest("code: missing") }
        let redemption = try await store.redeemCode(
            digest: code.digest, at: clock.now(),
            revokedUntil: clock.now().addingTimeInterval(configuration.accessTokenLifetime.seconds))
        guard case .redeemed(let grant, let identifiers) = redemption else {
            throw TenantError(.invalidGrant, status: 403, "Invalid authorization code")
        }
        let authorized = grant.request
        guard authorized.clientID == request.clientID else {
            throw TenantError(.invalidGrant, status: 403, "The authorization code was issued to another client.")
        }
        guard authorized.redirectURI == request.redirectURI else {
            throw TenantError(
                .invalidGrant, status: 403, "The redirect_uri differs from the one of the authorization request.")
        }
        if let challenge = authorized.codeChallenge {
            guard let verifier = request.codeVerifier,
                WebAuthAPI.isPKCEValue(verifier.text, length: 43...128, symbols: "-._~"),
                Base64URL.encode(verifier.digest) == challenge
            else {
                throw TenantError(.invalidGrant, status: 403, "Failed to verify code verifier")
            }
        } else if request.codeVerifier != nil {
            // A verifier for a code asked for without a challenge (OAuth 2.1 §4.1.3).
            throw TenantError(.invalidGrant, status: 403, "Failed to verify code verifier")
        }
        try services.checkBinding(authorized.dpopJKT, proof: request.dpopThumbprint, of: "authorization code")
        guard let user = try await store.user(id: grant.userID) else {
            throw TenantError(.invalidGrant, status: 403, "The user of the authorization code does not exist any more.")
        }
        let (scopes, audience) = try services.grantedScopes(authorized.scope, audience: authorized.audience)
        return try await services.issueTokens(
            for: user, scopes: scopes, audience: audience,
            organization: try services.issuedOrganization(authorized.organization),
            authTime: grant.authTime, nonce: authorized.nonce, sessionID: grant.sessionID, identifiers: identifiers,
            refresh: nil, boundTo: request.dpopThumbprint, client: authorized.clientID)
    }
}
