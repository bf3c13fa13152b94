import Auth0Passkeys
import Foundation
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The tenant logging in through an upstream OpenID Connect connection to a second, real tenant
/// (``UpstreamPair``): the application's tokens at A for the user `oidc|idp|SUB`, B's user's
/// identity in A's Management API, and the login session covering both.
@Suite(.temporaryDirectory) struct UpstreamLoginTests {
    @Test func theApplicationGetsTokensForTheUpstreamUserAndASecondAuthorizeSkipsBoth() async throws {
        try await UpstreamPair.run { pair in
            let toB = try await pair.authorize()
            #expect(toB.status == 302)
            let location = try #require(toB.header("Location"))
            #expect(location.hasPrefix(pair.bURL + "/authorize?"))
            for parameter in [
                "response_type=code", "client_id=\(UpstreamPair.clientID)", "code_challenge_method=S256",
                "redirect_uri=\(PercentEncoding.encode(pair.aURL + "/login/callback"))",
            ] {
                #expect(location.contains(parameter), "\(location)")
            }
            let state = try #require(await pair.browser.cookie("passkey_upstream", at: pair.aURL))
            #expect(location.contains("state=\(state)"))
            let cookie = try #require(toB.headers.first { $0.name.lowercased() == "set-cookie" }?.value)
            #expect(
                cookie.contains("Path=/login/callback") && cookie.contains("HttpOnly")
                    && cookie.contains("SameSite=Lax"))

            let answer = try await pair.browser.get(try await pair.logInAtB(location))
            let query = try pair.appQuery(answer)
            #expect(query["state"] == UpstreamPair.state)
            #expect(await pair.browser.cookie("passkey_upstream", at: pair.aURL) == nil)
            let tokens = try await pair.exchange(code: try #require(query["code"]))

            let validator = IDTokenValidator(
                clientId: pair.a.clientID, issuer: pair.a.configuration.issuer,
                jwksURL: pair.aURL + "/.well-known/jwks.json", transport: CurlTransport(environment: [:]))
            let claims = try await validator.validate(
                try #require(tokens["id_token"]?.stringValue), nonce: UpstreamPair.nonce)
            let subject = try #require(claims.subject)
            #expect(subject.hasPrefix("oidc|idp|auth0|"))
            let upstreamSubject = String(subject.dropFirst("oidc|idp|".count))

            let users = try await pair.aUsers()
            #expect(users.map(\.user_id) == [subject])
            #expect(users.first?.email == "ada@example.com")
            #expect(
                users.first?.identities
                    == [.init(provider: "oidc", connection: "idp", user_id: upstreamSubject, isSocial: false)])

            // userinfo and the refresh grant, as for any user.
            let access = try #require(tokens["access_token"]?.stringValue)
            let userinfo = try await CurlTransport(environment: [:]).send(
                HTTPRequest(
                    method: .get, url: pair.aURL + "/userinfo",
                    headers: [(name: "Authorization", value: "Bearer \(access)")]))
            let info = try JSONDecoder().decode([String: JSONValue].self, from: Data(userinfo.body))
            #expect(info["sub"]?.stringValue == subject)
            #expect(info["email"]?.stringValue == "ada@example.com")
            let refreshed = try await pair.browser.postJSON(
                pair.aURL + "/oauth/token",
                [
                    "grant_type": "refresh_token", "client_id": pair.a.clientID,
                    "refresh_token": try #require(tokens["refresh_token"]?.stringValue),
                ])
            #expect(refreshed.status == 200)

            // The login session at A covers the upstream login: no trip to B.
            let again = try pair.appQuery(try await pair.authorize(["state": "second"]))
            #expect(again["state"] == "second")
            #expect(again["code"] != nil)
            #expect(try await pair.aUsers().count == 1)
        }
    }

    @Test func aLoginAgainFindsTheSameUserAndTheSameEmailSignedUpNativelyIsAnotherUser() async throws {
        try await UpstreamPair.run { pair in
            let first = try pair.appQuery(try await pair.logIn())
            #expect(first["code"] != nil)
            await pair.browser.clearCookies(at: pair.aURL)
            // B's session answers at once; A finds the user it made.
            let toB = try await pair.authorize()
            let back = try await pair.browser.get(try #require(toB.header("Location")))
            #expect(back.status == 302)
            let second = try pair.appQuery(try await pair.browser.get(try #require(back.header("Location"))))
            #expect(second["code"] != nil)
            #expect(try await pair.aUsers().count == 1)

            let harness = TenantHarness(tenant: pair.a, clock: TestClock(), device: pair.device)
            try await harness.router { http in
                _ = try await harness.signupChallenge(http, email: "ada@example.com")
            }
            let token = try await harness.router { http in try await harness.managementToken(http) }
            _ = try await harness.router { http in
                try await harness.createManagedUser(http, token: token, email: "ada@example.com")
            }
            let users = try await pair.aUsers()
            #expect(users.count == 2)
            #expect(Set(users.compactMap(\.email)) == ["ada@example.com"])
            #expect(Set(users.flatMap(\.identities).map(\.provider)) == ["oidc", "auth0"])
            #expect(try await pair.aUsers(path: "/api/v2/users-by-email?email=ADA%40example.com").count == 2)
            #expect(try await pair.aUsers(path: "/api/v2/users?q=email%3A%22ada%40example.com%22").count == 2)
        }
    }

    @Test func theLoginPageOffersEachConnectionAndAnUnknownOneIsRefused() async throws {
        try await UpstreamPair.run { pair in
            let page = try await pair.authorize(["connection": nil])
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(page.status == 200)
            #expect(html.contains(#"<a class="connection" href="/authorize?"#))
            #expect(html.contains("&amp;connection=idp\">Continue with idp</a>"))
            #expect(page.header("Content-Security-Policy")?.contains("script-src 'self';") == true)

            let unknown = try pair.appQuery(try await pair.authorize(["connection": "nope"]))
            #expect(unknown["error"] == "invalid_request")
            #expect(unknown["error_description"] == "Connection not found: nope")
        }
    }
}
