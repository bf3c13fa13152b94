import Auth0Passkeys
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// A regular web application's session after its login: the refresh and the revocation
/// authenticate the client as the code exchange did (RFC 6749 §2.3.1, §6; RFC 7009 §2.1), through
/// ``Authentication`` and through a ``CredentialsManager`` given the application's
/// ``ClientAuthentication``, against a tenant served on loopback; a refresh or revocation that
/// does not authenticate is refused with `invalid_client` and changes nothing.
@Suite struct ConfidentialSessionTests {
    /// Signs a new user up through the login page as the application `clientID`.
    private func signUp(
        _ clientID: String, _ method: ClientAuthentication, _ endpoint: TenantEndpoint, _ email: String
    ) async throws -> Credentials {
        let web = try Authentication(clientId: clientID, baseURL: endpoint.baseURL)
        return try await WebAuth(authentication: web).redirectURL(RegularWebApps.callback)
            .clientAuthentication(method)
            .start(
                using: LoginPageUserAgent(
                    device: VirtualDevice(store: InMemoryCredentialStore()), ceremony: .signUp(identifier: email)))
    }

    @Test(arguments: RegularWebApps.both.map(\.clientID))
    func aRegularWebAppRenewsAndRevokesThroughItsCredentialsManager(_ clientID: String) async throws {
        let method = try #require(RegularWebApps.both.first { $0.clientID == clientID }?.method)
        try await RegularWebApps.withTenant { _, endpoint in
            let credentials = try await signUp(clientID, method, endpoint, "\(clientID)@example.com")
            let first = try #require(credentials.refreshToken)
            let web = try Authentication(clientId: clientID, baseURL: endpoint.baseURL)
            // snippet.begin
            let manager = CredentialsManager(
                authentication: web, storage: InMemoryCredentialsStorage(), clientAuthentication: method)
            try await manager.store(credentials: credentials)
            let renewed = try await manager.renew()  // grant_type=refresh_token, the client authenticated
            try await manager.revoke()  // POST /oauth/revoke, authenticated the same way
            // snippet.end
            #expect(renewed.accessToken != credentials.accessToken)
            let rotated = try #require(renewed.refreshToken)
            for token in [first, rotated] {
                let error = await #expect(throws: AuthenticationError.self) {
                    try await web.renew(withRefreshToken: token, clientAuthentication: method).start()
                }
                #expect(error?.code == .invalidGrant)
            }
        }
    }

    /// A ``VirtualUser`` of a ``Tenant`` given the application's ``ClientAuthentication``: its web
    /// login's code exchange, its renewal (asked by a narrower scope, RFC 6749 §6) and its
    /// logout's revocation all authenticate the client; the revoked refresh token is refused.
    @Test(arguments: RegularWebApps.both.map(\.clientID))
    func aVirtualUserOfAConfidentialTenantSendsTheSecret(_ clientID: String) async throws {
        let method = try #require(RegularWebApps.both.first { $0.clientID == clientID }?.method)
        try await RegularWebApps.withTenant { _, endpoint in
            var tenant = try Tenant(clientID: clientID, baseURL: endpoint.baseURL)
            tenant.clientAuthentication = method
            let device = VirtualDevice(store: InMemoryCredentialStore())
            let user = VirtualUser(tenant: tenant, device: device)
            let email = "virtual-\(clientID)@example.com"
            let signedUp = try await user.logInOnTheWeb(
                redirectURL: RegularWebApps.callback, signUp: true, loginHint: email,
                using: LoginPageUserAgent(device: device, ceremony: .signUp(identifier: email)))
            let renewed = try await user.credentials(withScope: "openid email offline_access")
            #expect(renewed.accessToken != signedUp.credentials.accessToken)
            let refreshToken = try #require(renewed.refreshToken)
            #expect(try await user.logOut(revoke: true).revoked)
            let error = await #expect(throws: AuthenticationError.self) {
                try await tenant.authentication.renew(withRefreshToken: refreshToken, clientAuthentication: method)
                    .start()
            }
            #expect(error?.code == .invalidGrant)
        }
    }

    @Test(arguments: RegularWebApps.both.map(\.clientID))
    func authenticationRenewsAndRevokesWithTheSecret(_ clientID: String) async throws {
        let method = try #require(RegularWebApps.both.first { $0.clientID == clientID }?.method)
        try await RegularWebApps.withTenant { _, endpoint in
            let credentials = try await signUp(clientID, method, endpoint, "direct-\(clientID)@example.com")
            let web = try Authentication(clientId: clientID, baseURL: endpoint.baseURL)
            let renewed = try await web.renew(
                withRefreshToken: try #require(credentials.refreshToken), clientAuthentication: method
            ).start()
            let refreshToken = try #require(renewed.refreshToken)
            try await web.revoke(refreshToken: refreshToken, clientAuthentication: method).start()
            let error = await #expect(throws: AuthenticationError.self) {
                try await web.renew(withRefreshToken: refreshToken, clientAuthentication: method).start()
            }
            #expect(error?.code == .invalidGrant)
        }
    }

    /// A wrong secret, the right secret sent the other way, and none: `invalid_client` (401) at
    /// the refresh and at the revocation, whose descriptions hold neither secret, and the refresh
    /// token still works with the right authentication.
    @Test(arguments: [
        ClientAuthentication.clientSecretBasic(ClientSecret("wrong secret")),
        .clientSecretPost(ClientSecret(RegularWebApps.basicSecret)),
        .none,
    ])
    func aRefreshOrRevocationThatDoesNotAuthenticateIsRefused(_ presented: ClientAuthentication) async throws {
        let (clientID, method) = RegularWebApps.both[0]
        try await RegularWebApps.withTenant { _, endpoint in
            let credentials = try await signUp(clientID, method, endpoint, "mallory@example.com")
            let refreshToken = try #require(credentials.refreshToken)
            let web = try Authentication(clientId: clientID, baseURL: endpoint.baseURL)
            let refusals = [
                await #expect(throws: AuthenticationError.self) {
                    try await web.renew(withRefreshToken: refreshToken, clientAuthentication: presented).start()
                },
                await #expect(throws: AuthenticationError.self) {
                    try await web.revoke(refreshToken: refreshToken, clientAuthentication: presented).start()
                },
            ]
            for refusal in refusals {
                let error = try #require(refusal)
                #expect(error.code == .invalidClient)
                #expect(error.statusCode == 401)
                for text in ["\(error)", String(reflecting: error), error.reason] {
                    #expect(!text.contains("wrong secret") && !text.contains(RegularWebApps.basicSecret))
                }
            }

            let manager = CredentialsManager(
                authentication: web, storage: InMemoryCredentialsStorage(), clientAuthentication: presented)
            try await manager.store(credentials: credentials)
            let failure = await #expect(throws: CredentialsManagerError(.renewFailed, "")) { try await manager.renew() }
            #expect((failure?.cause as? AuthenticationError)?.code == .invalidClient)
            #expect(failure.map { !"\($0)".contains(RegularWebApps.basicSecret) } == true)

            let renewed = try await web.renew(withRefreshToken: refreshToken, clientAuthentication: method).start()
            #expect(renewed.refreshToken != nil)
        }
    }
}
