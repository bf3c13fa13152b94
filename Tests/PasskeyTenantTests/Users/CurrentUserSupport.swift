import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import Testing
import WebAuthn

/// A user's own Management API token (issue 41): a passkey signup or login asking for the
/// management audience and the current-user scopes, as Auth0.swift's `users(token:)` examples do.
extension TenantHarness {
    /// The scopes a user asks for to read and change their own user and link their accounts.
    static let currentUserScope =
        "openid profile email read:current_user update:current_user_metadata update:current_user_identities"

    /// A new passkey user on `device` (a new one by default): their ID, their tokens for the
    /// management audience, and the device.
    func managementUser(
        _ http: any TestClientProtocol, email: String, device: WebAuthnClient = TenantHarness.device(),
        scope: String = TenantHarness.currentUserScope
    ) async throws -> (id: String, tokens: TokenResponse, device: WebAuthnClient) {
        let tokens = try await signUp(
            http, email: email, device: device, scope: scope, audience: Self.managementAudience)
        let id = try #require(try jwtClaims(tokens.idToken)["sub"]?.stringValue)
        return (id, tokens, device)
    }

    /// `method` on `/api/v2/users/{id}` + `path`, with `token`, and the JSON text `body` when given.
    func userRequest(
        _ http: any TestClientProtocol, _ method: HTTPRequest.Method, _ id: String, _ path: String = "",
        body: String? = nil, token: String
    ) async throws -> HTTPResult {
        try await http.send(method, "/api/v2/users/\(Self.pathEncoded(id))\(path)", raw: body, bearer: token)
    }
}

extension TokenResponse {
    /// The access token's text.
    var bearer: String { accessToken.text }
}
