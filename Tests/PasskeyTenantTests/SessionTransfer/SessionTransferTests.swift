import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import Testing
import WebAuthn

/// Native to Web SSO: a native login's refresh token exchanged for a session transfer token
/// (`audience=urn:<domain>:session_transfer`), redeemed once at a web application's `/authorize`
/// for a web session without a login; and each refusal.
@Suite struct SessionTransferTests {
    static let audience = "urn:localhost:session_transfer"

    /// A tenant with web applications, and a flow as its single-page app.
    private static func setUp() async throws -> (TenantHarness, WebAuthFlow, spaClientID: String) {
        let harness = try await TenantHarness(configuration: ClientApplications.configuration)
        return (harness, WebAuthFlow(harness), harness.tenant.applications[2].clientID)
    }

    /// A signup of the native app, and a session transfer token from its refresh token.
    private static func transfer(_ harness: TenantHarness, _ http: any TestClientProtocol) async throws
        -> (signup: TokenResponse, answer: HTTPResult)
    {
        let signup = try await harness.signUp(http)
        return (signup, try await harness.refresh(http, try #require(signup.refreshToken), audience: audience))
    }

    @Test func aRefreshTokenBecomesASessionTransferTokenThatOpensAWebSession() async throws {
        let (harness, flow, spa) = try await Self.setUp()
        let (signup, answer, redirect, code, userinfo) = try await harness.router { http in
            let (signup, answer) = try await Self.transfer(harness, http)
            let token = try #require(answer.json["access_token"]?.stringValue)
            let redirect = try await flow.authorize(http, ["client_id": spa, "session_transfer_token": token])
            let code = try await flow.exchange(http, code: try flow.code(redirect), clientID: spa)
            let tokens = try code.decode(TokenResponse.self)
            return (
                signup, answer, redirect, tokens,
                try await http.send(.get, "/userinfo", bearer: tokens.accessToken.text)
            )
        }
        #expect(answer.status == .ok, "\(answer.text)")
        #expect(
            answer.json["issued_token_type"] == .string("urn:auth0:params:oauth:token-type:session_transfer_token"))
        #expect(answer.json["token_type"] == .string("N_A"))
        #expect(answer.json["expires_in"] == .number(60))
        #expect(answer.json["scope"] == nil)
        let rotated = try #require(answer.json["refresh_token"]?.stringValue)
        #expect(rotated != signup.refreshToken?.text)
        #expect(redirect.setCookies.contains { $0.hasPrefix("passkey_session=") })
        #expect(try jwtClaims(code.idToken)["aud"] == .string(spa))
        #expect(try jwtClaims(code.idToken)["sub"] == jwtClaims(signup.idToken)["sub"])
        #expect(userinfo.status == .ok)
    }

    @Test func theCookieCarriesItToo() async throws {
        let (harness, flow, spa) = try await Self.setUp()
        let redirect = try await harness.router { http in
            let token = try #require(try await Self.transfer(harness, http).answer.json["access_token"]?.stringValue)
            return try await http.send(
                .get, flow.authorizeURI(["client_id": spa]), contentType: nil,
                headers: [HTTPField.Name("Host")!: flow.host, .cookie: "auth0_session_transfer_token=\(token)"])
        }
        #expect(redirect.status == .found)
        #expect(try flow.callbackQuery(try #require(redirect.location))["code"] != nil)
        #expect(redirect.setCookies.contains { $0.hasPrefix("auth0_session_transfer_token=;") })
    }

    @Test func theTokenIsUsedOnceAndExpires() async throws {
        let (harness, flow, spa) = try await Self.setUp()
        let (twice, expired, forged) = try await harness.router { http in
            let answer = try await Self.transfer(harness, http).answer
            let token = try #require(answer.json["access_token"]?.stringValue)
            _ = try await flow.authorize(http, ["client_id": spa, "session_transfer_token": token])
            let twice = try await flow.authorize(http, ["client_id": spa, "session_transfer_token": token])
            let rotated = Secret(try #require(answer.json["refresh_token"]?.stringValue))
            let late = try #require(
                try await harness.refresh(http, rotated, audience: Self.audience).json["access_token"]?.stringValue)
            harness.clock.advance(by: 61)
            let expired = try await flow.authorize(http, ["client_id": spa, "session_transfer_token": late])
            let forged = try await flow.authorize(
                http, ["client_id": spa, "session_transfer_token": String(token.dropLast()) + "A"])
            return (twice, expired, forged)
        }
        // As on Auth0, a token that does not hold asks the user to log in: the login page, no code.
        for result in [twice, expired, forged] {
            #expect(result.status == .ok, "\(result.text)")
            #expect(result.text.contains("data-transaction="))
            #expect(!result.setCookies.contains { $0.hasPrefix("passkey_session=") })
        }
    }

    @Test func anInvalidTokenDoesNotUseTheBrowsersSession() async throws {
        let (harness, flow, spa) = try await Self.setUp()
        let (page, none) = try await harness.router { http in
            let (_, session) = try await flow.signUpForCode(http, ["client_id": spa], email: "grace@example.com")
            return (
                try await flow.authorize(
                    http, ["client_id": spa, "session_transfer_token": "bogus"], session: session),
                try await flow.authorize(
                    http, ["client_id": spa, "session_transfer_token": "bogus", "prompt": "none"], session: session)
            )
        }
        #expect(page.status == .ok && page.text.contains("data-transaction="))
        #expect(try flow.callbackQuery(try #require(none.location))["error"] == "login_required")
    }

    @Test func onlyAWebApplicationRedeemsIt() async throws {
        let (harness, flow, spa) = try await Self.setUp()
        let (native, web) = try await harness.router { http in
            let token = try #require(try await Self.transfer(harness, http).answer.json["access_token"]?.stringValue)
            return (
                try await flow.authorize(http, ["session_transfer_token": token]),
                try await flow.authorize(http, ["client_id": spa, "session_transfer_token": token])
            )
        }
        // The native app's /authorize ignores it and leaves it live for the web app.
        #expect(native.status == .ok && native.text.contains("data-transaction="))
        #expect(web.status == .found)
    }

    @Test func onlyANativeApplicationCreatesOne() async throws {
        let harness = try await TenantHarness(configuration: ClientApplications.configuration)
        let spa = harness.acting(as: harness.tenant.applications[2])
        let flow = WebAuthFlow(spa)
        let result = try await harness.router { http in
            let (code, _) = try await flow.signUpForCode(http, ["client_id": spa.clientID])
            let tokens = try await flow.exchange(http, code: code, clientID: spa.clientID).decode(TokenResponse.self)
            return try await spa.refresh(http, try #require(tokens.refreshToken), audience: Self.audience)
        }
        expectRefused(result, "unauthorized_client", status: .forbidden)
    }

    @Test func aRefusedRefreshTokenGetsNoTransferToken() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            let signup = try await harness.signUp(http)
            let token = try #require(signup.refreshToken)
            _ = try await harness.refresh(http, token)
            return try await harness.refresh(http, token, audience: Self.audience)
        }
        expectRefused(result, "invalid_grant", status: .forbidden, description: "Unknown or invalid refresh token.")
    }

    @Test func theLifetimeIsConfigured() async throws {
        var configuration = TenantConfiguration()
        configuration.sessionTransferLifetime = .seconds(5)
        let harness = try await TenantHarness(configuration: configuration)
        let answer = try await harness.router { http in try await Self.transfer(harness, http).answer }
        #expect(answer.json["expires_in"] == .number(5))
    }
}
