import FoundationEssentials
import WebAuthn

extension AuthenticationAPI {
    /// `POST /oauth/token`: the webauthn grant (signup or login, by the session), the authorization
    /// code grant of Web Auth, and the refresh grant, for the default audience or another one
    /// (auth0-passkey-api.md §3, §6.1, §6.4, §14.3); and the client credentials grant of the
    /// machine-to-machine client (§15.1, ``clientCredentials(_:)``).
    func token(_ request: TokenRequest) async throws(TenantError) -> TokenResponse {
        try await token(request, proof: nil)
    }

    /// ``token(_:)`` with the request's checked DPoP proof, if it had one (RFC 9449 §5;
    /// auth0-passkey-api.md §16.4), and its `Authorization` header: the client is authenticated
    /// first (``TenantServices/authenticateClient(_:grant:)``: Basic, the body's secret, or none
    /// for a public client), then the grant is the authenticated client's. The tokens it issues
    /// are bound to the proof's key, and ``TenantConfiguration/requireProofOfPossession`` refuses
    /// a request without one. The client credentials grant is not the application's: it takes
    /// Bearer tokens only.
    ///
    /// - Throws: as ``token(_:)``; `invalid_client` (401) and `unauthorized_client` (403) as client
    ///   authentication says; `invalid_dpop_proof` for a missing proof when one is required
    ///   or the grant (refresh token, authorization code) is bound to a key; `invalid_grant` when
    ///   it is bound to another key.
    func token(
        _ request: TokenRequest, proof: DPoPProof?, authorization: (scheme: String, token: Secret)? = nil
    ) async throws(TenantError) -> TokenResponse {
        let client = try services.authenticateClient(
            ClientCredentials(
                authorization: authorization, bodyClientID: request.clientID, bodySecret: request.clientSecret),
            grant: request.grantType.isEmpty ? nil : request.grantType)
        guard !request.grantType.isEmpty else { throw .invalidRequest("grant_type: missing") }
        var request = request
        request.clientID = client.clientID
        if request.grantType == TokenRequest.clientCredentialsGrant {
            return try await clientCredentials(request)
        }
        if configuration.requireProofOfPossession, proof == nil {
            throw TenantError(
                .invalidDPoPProof, "This application requires a DPoP proof (RFC 9449) at the token endpoint.")
        }
        request.dpopThumbprint = proof?.key.thumbprint
        switch request.grantType {
        case TokenRequest.webAuthnGrant:
            let session = try await services.takeSession(request.authSession)
            guard session.clientID == request.clientID else {
                throw .invalidGrant("The auth_session was issued to another client.")
            }
            if let realm = request.realm, realm != session.connection {
                throw .invalidGrant("The auth_session was issued for another connection.")
            }
            if request.organization != nil || configuration.organizationUsage == .require {
                let organization = try services.checkOrganization(request.organization)
                guard organization?.id == session.organization else {
                    throw .invalidGrant("The auth_session was issued for another organization.")
                }
            }
            switch session.kind {
            case .signup: return try await completeSignup(session, request: request)
            case .login: return try await completeLogin(session, request: request)
            case .enrollment: throw .invalidGrant("An enrollment auth_session is verified by My Account.")
            }
        case TokenRequest.refreshGrant:
            return try await refresh(request)
        case TokenRequest.authorizationCodeGrant:
            return try await exchangeCode(request)
        case TokenRequest.passwordRealmGrant, TokenRequest.passwordGrant:
            return try await passwordGrant(request)
        default:
            throw TenantError(.unsupportedGrantType, "Unsupported grant type: \(request.grantType.prefix(100))")
        }
    }
}
