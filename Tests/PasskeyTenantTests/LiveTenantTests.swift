import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The tenant over real HTTP on a loopback port: the whole life of a user.
@Suite struct LiveTenantTests {
    @Test func signupLoginEnrollRefreshUserinfoAPIRevoke() async throws {
        let harness = try await TenantHarness()
        try await TestTenant.serve(harness.tenant) { http, _ in
            let api = "https://localhost/api/"
            let signup = try await harness.signUp(
                http, scope: "openid profile email offline_access read:events", audience: api)
            let events = try await http.send(.get, "/api/events", bearer: signup.accessToken.text)
            #expect(events.status == .ok)
            let login = try await harness.logIn(http)
            let userinfo = try await http.send(.get, "/userinfo", bearer: login.accessToken.text)
            #expect(userinfo.json["email"] == .string("ada@example.com"))
            let exchange = try await harness.refresh(
                http, try #require(login.refreshToken), audience: "https://localhost/me/",
                scope: "openid create:me:authentication_methods")
            let myAccount = try exchange.decode(TokenResponse.self)
            let challenge = try await http.send(
                .post, "/me/v1/authentication-methods", raw: #"{"type":"passkey"}"#,
                bearer: myAccount.accessToken.text)
            #expect(challenge.status == .accepted)
            let options = try challenge.decode(CreationChallengeResponse.self)
            let laptop = TenantHarness.device()
            let registration = try await laptop.create(options.options, origin: TenantHarness.origin)
            let enrolled = try await http.send(
                .post, "/me/v1/authentication-methods/passkey%7Cnew/verify",
                json: EnrollmentVerifyRequest(
                    authSession: options.authSession, authnResponse: PasskeyResponse(registration)),
                bearer: myAccount.accessToken.text)
            #expect(enrolled.status == .created, "\(enrolled.text)")
            _ = try await harness.logIn(http, device: laptop)
            let revoke = try await http.send(
                .post, "/oauth/revoke",
                json: RevokeRequest(token: try #require(myAccount.refreshToken), clientID: harness.clientID))
            #expect(revoke.status == .ok)
            let dead = try await harness.refresh(http, try #require(myAccount.refreshToken))
            #expect(dead.errorCode == "invalid_grant")
        }
    }

    /// Web Auth over real HTTP: the page's origin comes from the `Host` the browser sent.
    @Test func aWebAuthSignupAndCodeExchange() async throws {
        let harness = try await TenantHarness()
        try await TestTenant.serve(harness.tenant) { http, _ in
            var custom = WebAuthFlow(harness)
            custom.host = "localhost:\(http.port ?? 0)"
            let flow = custom
            let (code, session) = try await flow.signUpForCode(http)
            let exchanged = try await flow.exchange(http, code: code)
            #expect(exchanged.status == .ok, "\(exchanged.text)")
            let skipped = try await flow.authorize(http, session: session)
            #expect(skipped.status == .found)
        }
    }

    @Test func theAddressOfALiveClientIsCounted() async throws {
        var configuration = TenantConfiguration()
        configuration.attemptLimits = AttemptLimits(perUser: 100, perAddress: 1, window: .seconds(60))
        let harness = try await TenantHarness(configuration: configuration)
        try await TestTenant.serve(harness.tenant) { http, _ in
            let first = try await http.send(.post, "/passkey/challenge", raw: "{}")
            let second = try await http.send(.post, "/passkey/challenge", raw: #"{"client_id":"\#(harness.clientID)"}"#)
            #expect(first.status == .badRequest)
            #expect(second.status == .tooManyRequests)
        }
    }
}
