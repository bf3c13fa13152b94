import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// A virtual user's one native login serving two APIs (Multi-Resource Refresh Token) and opening a
/// regular web application without a login (a session transfer token, Native to Web SSO).
@Suite struct APIAndSSOCredentialsTests {
    /// The spec's PKCE pair (auth0-passkey-api.md §14.1).
    static let verifier = "CsRC8DIU_OGK3QTfW0W9ymwzTSt7EYc-6DpbRZwFNC8"
    static let challenge = "z3cuvywc8W4YDiBEfGSpLffZUjB5mxuxw29Ucm6M5EE"

    @Test func oneLoginServesTwoAPIsAndAWebApplication() async throws {
        try await RegularWebApps.withTenant { tenant, endpoint in
            let connection = try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL)
            let user = VirtualUser(tenant: connection, device: VirtualDevice(store: InMemoryCredentialStore()))
            let signup = try await user.signUp(email: "ada@example.com", name: "Ada Lovelace")

            let me = try await user.apiCredentials(
                audience: tenant.configuration.myAccountAudience, scope: "read:me:authentication_methods")
            let api = try await user.apiCredentials(audience: tenant.configuration.apiAudience, scope: "read:events")
            #expect(me.scope.contains("read:me:authentication_methods") && !me.scope.contains("read:events"))
            #expect(api.scope.contains("read:events") && !api.scope.contains("read:me:authentication_methods"))
            #expect(try await user.authenticationMethods(type: "passkey").count == 1)
            let events = try await user.callAPI(
                .get, endpoint.baseURL + "/api/events", audience: tenant.configuration.apiAudience,
                scope: "read:events")
            #expect(events.status == 200)

            // The session transfer token opens the web application as the same user, once.
            let sso = try await user.ssoCredentials()
            // The RP ID is localhost: the tenant serves its pages there (from 127.0.0.1 it redirects).
            let authorize =
                endpoint.baseURL.replacing("127.0.0.1", with: "localhost")
                + "/authorize?response_type=code&client_id=web-post&scope=openid"
                + "&redirect_uri=\(RegularWebApps.callback)&state=s1&code_challenge=\(Self.challenge)"
                + "&code_challenge_method=S256&session_transfer_token=\(sso.sessionTransferToken)"
            let redirect = try await CurlTransport().send(HTTPRequest(method: .get, url: authorize))
            #expect(redirect.status == 302)
            let location = try #require(redirect.headers.first { $0.name.lowercased() == "location" }?.value)
            let code = try #require(
                URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
            let web = try Authentication(clientId: "web-post", baseURL: endpoint.baseURL)
            let tokens = try await web.codeExchange(
                withCode: code, codeVerifier: Self.verifier, redirectURI: RegularWebApps.callback,
                clientAuthentication: .clientSecretPost(ClientSecret(RegularWebApps.postSecret))
            ).start()
            #expect(try await web.userInfo(withAccessToken: tokens.accessToken).start().sub == signup.user.sub)
            let again = try await CurlTransport().send(HTTPRequest(method: .get, url: authorize))
            #expect(again.status == 200)

            // The native session still renews with the rotated refresh token.
            #expect(try await user.credentialsManager.renew().accessToken.isEmpty == false)
        }
    }
}
