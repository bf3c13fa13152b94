import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PasskeyTenant
import Testing

/// `GET /v2/logout` (auth0-passkey-api.md §14.4): `returnTo` against the Allowed Logout URLs, and
/// the end of the login session.
@Suite struct LogoutTests {
    static let cleared = "passkey_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0"

    @Test func anAllowedReturnToEndsTheSessionAndRedirects() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (logout, after) = try await harness.router { http in
            let (_, session) = try await flow.signUpForCode(http)
            let logout = try await http.send(
                .get, "/v2/logout?client_id=\(harness.clientID)&returnTo=http%3A%2F%2F127.0.0.1%3A4000%2F",
                contentType: nil, headers: [.cookie: "passkey_session=\(session)"])
            return (logout, try await flow.authorize(http, ["prompt": "none"], session: session))
        }
        #expect(logout.status == .found)
        #expect(logout.location == "http://127.0.0.1:4000/")
        #expect(logout.setCookies == [Self.cleared])
        WebAuthAuthorizeTests.expectPageHeaders(logout)
        #expect(try flow.callbackQuery(try #require(after.location))["error"] == "login_required")
    }

    @Test(arguments: ["https://evil.example/", "http://127.0.0.1:4000/elsewhere", "http://127.0.0.1/#x"])
    func aReturnToThatIsNotAllowedGetsAPage(returnTo: String) async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(.get, "/v2/logout?returnTo=\(WebAuthFlow.encode(returnTo))", contentType: nil)
        }
        #expect(result.status == .badRequest)
        #expect(result.location == nil)
        #expect(result.text.contains("returnTo"))
        WebAuthAuthorizeTests.expectPageHeaders(result)
    }

    @Test func aClientIDAloneGoesToTheFirstAllowedURL() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(.get, "/v2/logout?client_id=\(harness.clientID)&federated", contentType: nil)
        }
        #expect(result.status == .found)
        #expect(result.location == "http://127.0.0.1/")
    }

    @Test func anUnknownClientIDGetsAPage() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(.get, "/v2/logout?client_id=nobody", contentType: nil)
        }
        #expect(result.status == .badRequest)
    }

    @Test func neitherShowsTheLoggedOutPage() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in try await http.send(.get, "/v2/logout", contentType: nil) }
        #expect(result.status == .ok)
        #expect(result.text.contains("You are logged out"))
        #expect(result.setCookies == [Self.cleared])
        WebAuthAuthorizeTests.expectPageHeaders(result)
    }

    /// Under TLS the session cookie is `SameSite=None; Secure` (WebAuthPageTests), and so is its
    /// deletion, which a cross-site answer may then carry too.
    @Test func underTLSTheDeletionIsCrossSiteAndSecure() async throws {
        let harness = try await TenantHarness()
        let result = try await Application(router: harness.tenant.router(servesTLS: true)).test(.router) { http in
            try await http.send(.get, "/v2/logout", contentType: nil)
        }
        #expect(result.setCookies == ["passkey_session=; HttpOnly; SameSite=None; Path=/; Max-Age=0; Secure"])
    }

    @Test func configuredLogoutURLsReplaceTheDefaults() async throws {
        var configuration = TenantConfiguration()
        configuration.logoutURLs = ["https://app.example/bye"]
        let harness = try await TenantHarness(configuration: configuration)
        let (allowed, default_, first) = try await harness.router { http in
            (
                try await http.send(.get, "/v2/logout?returnTo=https%3A%2F%2Fapp.example%2Fbye", contentType: nil),
                try await http.send(.get, "/v2/logout?returnTo=http%3A%2F%2F127.0.0.1%2F", contentType: nil),
                try await http.send(.get, "/v2/logout?client_id=\(harness.clientID)", contentType: nil)
            )
        }
        #expect(allowed.location == "https://app.example/bye")
        #expect(default_.status == .badRequest)
        #expect(first.location == "https://app.example/bye")
    }
}
