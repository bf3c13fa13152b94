import Foundation
import PasskeyTenant
import Testing
import WebAuthn

@testable import Auth0Passkeys

/// One login's refresh token against the local tenant, with the real `CurlTransport`: API
/// credentials for two audiences (Multi-Resource Refresh Token) and SSO credentials (a session
/// transfer token), each exchange rotating the stored refresh token.
@Suite struct MultiResourceAndSSOLiveTests {
    /// The first `aud` of a JWT, unchecked.
    private static func audience(_ jwt: String) throws -> JSONValue? {
        guard case .array(let values) = try claims(jwt)["aud"] else { return nil }
        return values.first
    }

    /// The payload of a JWT, unchecked.
    private static func claims(_ jwt: String) throws -> [String: JSONValue] {
        let parts = jwt.split(separator: ".")
        try #require(parts.count == 3)
        return try JSONDecoder().decode(
            [String: JSONValue].self, from: Data(try Base64URL(string: String(parts[1])).bytes))
    }

    @Test func apiCredentialsForTwoAudiencesFromOneLogin() async throws {
        try await LiveTenant.run { live in
            let (_, signup) = try await live.signUp("ada@example.com", device: LiveTenant.device())
            let manager = CredentialsManager(authentication: live.auth, storage: InMemoryCredentialsStorage())
            try await manager.store(credentials: signup)
            let myAccount = live.tenant.configuration.myAccountAudience
            let events = live.tenant.configuration.apiAudience
            let me = try await manager.apiCredentials(forAudience: myAccount, scope: "read:me:authentication_methods")
            let afterFirst = try #require(try await manager.credentials().refreshToken)
            let api = try await manager.apiCredentials(forAudience: events, scope: "read:events")
            let afterSecond = try #require(try await manager.credentials().refreshToken)

            #expect(try Self.audience(me.accessToken) == .string(myAccount))
            #expect(me.scope.split(separator: " ").contains("read:me:authentication_methods"))
            #expect(try Self.audience(api.accessToken) == .string(events))
            #expect(api.scope.split(separator: " ").contains("read:events"))
            #expect(!api.scope.contains("read:me:authentication_methods"))
            // Each exchange rotated the refresh token, and the manager kept the new one.
            #expect(Set([signup.refreshToken, afterFirst, afterSecond]).count == 3)
            let reused = await #expect(throws: AuthenticationError.self) {
                try await live.auth.renew(withRefreshToken: try #require(signup.refreshToken)).start()
            }
            #expect(reused?.statusCode == 403 && reused?.isInvalidRefreshToken == true)

            // Both tokens work at their APIs.
            let methods = try await MyAccount(token: me.accessToken, baseURL: live.baseURL).authenticationMethods
                .getAuthenticationMethods().start()
            #expect(methods.count == 1)
            let list = try await CurlTransport().send(
                HTTPRequest(
                    method: .get, url: live.baseURL + "/api/events",
                    headers: [(name: "Authorization", value: "Bearer \(api.accessToken)")]))
            #expect(list.status == 200)
        }
    }

    @Test func anAudiencesScopesAreItsOwn() async throws {
        try await LiveTenant.run { live in
            let (_, signup) = try await live.signUp("grace@example.com", device: LiveTenant.device())
            let manager = CredentialsManager(authentication: live.auth, storage: InMemoryCredentialsStorage())
            try await manager.store(credentials: signup)
            let refused = await #expect(throws: CredentialsManagerError.self) {
                try await manager.apiCredentials(
                    forAudience: live.tenant.configuration.apiAudience, scope: "read:me:authentication_methods")
            }
            #expect(refused?.code == .apiExchangeFailed)
            let cause = refused?.cause as? AuthenticationError
            #expect(cause?.statusCode == 403 && cause?.isAccessDenied == true)
        }
    }

    @Test func ssoCredentialsFromTheStoredRefreshToken() async throws {
        try await LiveTenant.run { live in
            let (_, signup) = try await live.signUp("ada@example.com", device: LiveTenant.device())
            let manager = CredentialsManager(authentication: live.auth, storage: InMemoryCredentialsStorage())
            try await manager.store(credentials: signup)
            let sso = try await manager.ssoCredentials()
            #expect(!sso.sessionTransferToken.isEmpty)
            #expect(sso.tokenType == "N_A")
            #expect(sso.issuedTokenType == "urn:auth0:params:oauth:token-type:session_transfer_token")
            #expect(abs(sso.expiresAt.timeIntervalSinceNow - 60) < 10)
            let rotated = try #require(sso.refreshToken)
            #expect(rotated != signup.refreshToken)
            #expect(try await manager.credentials().refreshToken == rotated)
            #expect(!String(describing: sso).contains(sso.sessionTransferToken))
            #expect(try await manager.ssoCredentials().sessionTransferToken != sso.sessionTransferToken)

            // With the refresh token revoked, the exchange fails, and says why.
            try await live.auth.revoke(refreshToken: try #require(try await manager.credentials().refreshToken))
                .start()
            let refused = await #expect(throws: CredentialsManagerError.self) { try await manager.ssoCredentials() }
            #expect(refused?.code == .ssoExchangeFailed)
            #expect((refused?.cause as? AuthenticationError)?.isInvalidRefreshToken == true)
        }
    }

    @Test func theAudienceNamesTheTenantsHost() async throws {
        let auth = try Authentication(clientId: "app", baseURL: "https://login.example.com:8443/")
        #expect(Authentication.host(of: auth.url) == "login.example.com")
    }
}
