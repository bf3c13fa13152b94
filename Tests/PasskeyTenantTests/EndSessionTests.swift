import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import Testing
import WebAuthn

/// `/oidc/logout` (OpenID Connect RP-Initiated Logout 1.0 §2, §3): the ID token hint, the
/// post-logout redirect URI against the Allowed Logout URLs of the application the hint or
/// `client_id` names, `state`, and the end of the login session; every refusal a 400 page that
/// leaves the session alone.
@Suite struct EndSessionTests {
    /// The default application's Allowed Logout URL `http://127.0.0.1/`, on another port.
    static let returnTo = "http://127.0.0.1:4000/"

    /// A new user's login session on the page and the ID token of its code, for `clientID` (by
    /// default the default application's).
    static func session(
        _ http: any TestClientProtocol, _ flow: WebAuthFlow, clientID: String? = nil
    ) async throws -> (cookie: String, idToken: String) {
        let changes: [String: String?] = clientID.map { ["client_id": $0] } ?? [:]
        // A new user each time, so that one tenant holds several sessions.
        let email = "\(UUID().uuidString.lowercased())@example.com"
        let (code, cookie) = try await flow.signUpForCode(http, changes, email: email)
        let tokens = try await flow.exchange(http, code: code, clientID: clientID).decode(TokenResponse.self)
        return (cookie, try #require(tokens.idToken?.text))
    }

    /// `GET /oidc/logout?…` with the session cookie when given.
    static func logout(_ http: any TestClientProtocol, _ parameters: [(String, String)], cookie: String? = nil)
        async throws -> HTTPResult
    {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = "passkey_session=\(cookie)" }
        return try await http.send(
            .get, "/oidc/logout?" + WebAuthFlow.query(parameters), contentType: nil, headers: headers)
    }

    /// Whether the session still logs in silently.
    static func isAlive(_ http: any TestClientProtocol, _ flow: WebAuthFlow, _ cookie: String) async throws -> Bool {
        let answer = try await flow.authorize(http, ["prompt": "none"], session: cookie)
        return try flow.callbackQuery(try #require(answer.location))["code"] != nil
    }

    @Test func theHintNamesTheApplicationAndTheSessionEndsWithStateBack() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (logout, alive) = try await harness.router { http in
            let (cookie, idToken) = try await Self.session(http, flow)
            let logout = try await Self.logout(
                http,
                [
                    ("id_token_hint", idToken), ("post_logout_redirect_uri", Self.returnTo), ("state", "a b&c"),
                    ("logout_hint", "whoever"), ("ui_locales", "fr"),
                ],
                cookie: cookie)
            return (logout, try await Self.isAlive(http, flow, cookie))
        }
        #expect(logout.status == .found)
        #expect(logout.location == Self.returnTo + "?state=a%20b%26c")
        #expect(logout.setCookies == [LogoutTests.cleared])
        WebAuthAuthorizeTests.expectPageHeaders(logout)
        #expect(!alive)
    }

    @Test func anExpiredHintIsStillAHint() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let logout = try await harness.router { http in
            let (cookie, idToken) = try await Self.session(http, flow)
            harness.clock.advance(by: 3 * 86_400)
            return try await Self.logout(
                http, [("id_token_hint", idToken), ("post_logout_redirect_uri", Self.returnTo)], cookie: cookie)
        }
        #expect(logout.status == .found)
        #expect(logout.location == Self.returnTo)
    }

    @Test func aClientIDAloneNamesTheApplicationAndAPostFormWorksToo() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (logout, alive) = try await harness.router { http in
            let (cookie, _) = try await Self.session(http, flow)
            let form = WebAuthFlow.query([
                ("client_id", harness.clientID), ("post_logout_redirect_uri", Self.returnTo), ("state", "xyz"),
            ])
            let logout = try await http.send(
                .post, "/oidc/logout", raw: form, contentType: "application/x-www-form-urlencoded",
                headers: [.cookie: "passkey_session=\(cookie)"])
            return (logout, try await Self.isAlive(http, flow, cookie))
        }
        #expect(logout.status == .found)
        #expect(logout.location == Self.returnTo + "?state=xyz")
        #expect(!alive)
    }

    @Test func noRedirectURIShowsTheLoggedOutPage() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in try await Self.logout(http, [("state", "xyz")]) }
        #expect(result.status == .ok)
        #expect(result.text.contains("You are logged out"))
        #expect(result.setCookies == [LogoutTests.cleared])
    }

    /// A refusal: a 400 page, no redirect, the session alive.
    static func expectRefused(
        _ harness: TenantHarness, clientID: String? = nil,
        _ parameters: @Sendable @escaping (_ idToken: String) -> [(String, String)], saying text: String
    ) async throws {
        let flow = WebAuthFlow(harness)
        let (result, alive) = try await harness.router { http in
            let (cookie, idToken) = try await Self.session(http, flow, clientID: clientID)
            let result = try await Self.logout(http, parameters(idToken), cookie: cookie)
            return (result, try await Self.isAlive(http, flow, cookie))
        }
        #expect(result.status == .badRequest)
        #expect(result.location == nil)
        #expect(result.setCookies.isEmpty)
        #expect(result.text.contains(text), "\(result.text)")
        WebAuthAuthorizeTests.expectPageHeaders(result)
        #expect(alive)
    }

    @Test(arguments: ["https://evil.example/", "http://127.0.0.1:4000/elsewhere"])
    func aRedirectURIThatIsNotAllowedIsRefused(uri: String) async throws {
        let harness = try await TenantHarness()
        try await Self.expectRefused(
            harness, { [("id_token_hint", $0), ("post_logout_redirect_uri", uri)] }, saying: "Allowed Logout URLs")
    }

    @Test func aRedirectURIWithoutAnApplicationIsRefused() async throws {
        let harness = try await TenantHarness()
        try await Self.expectRefused(
            harness, { _ in [("post_logout_redirect_uri", Self.returnTo)] }, saying: "client_id or an id_token_hint")
    }

    @Test func aHintSignedByAnotherKeyIsRefused() async throws {
        // Another tenant on the same domain, with its own key: the same issuer, another signature.
        let other = try await TenantHarness(signingKey: nil)
        let foreign = try await other.router { http in try await Self.session(http, WebAuthFlow(other)).idToken }
        let harness = try await TenantHarness()
        try await Self.expectRefused(
            harness, { _ in [("id_token_hint", foreign), ("post_logout_redirect_uri", Self.returnTo)] },
            saying: "not an ID token this tenant issued")
        try await Self.expectRefused(
            harness, { _ in [("id_token_hint", "not.a.token")] }, saying: "not an ID token this tenant issued")
    }

    @Test func aHintOfAClientWhoseLogoutURLsLackTheURIIsRefused() async throws {
        var configuration = TenantConfiguration()
        var spa = TenantApplication(name: "spa", appType: .spa, callbacks: ["http://127.0.0.1/callback"])
        spa.allowedLogoutURLs = ["https://spa.example/bye"]
        configuration.applications = [spa]
        let harness = try await TenantHarness(configuration: configuration)
        let spaID = harness.tenant.applications[0].clientID
        // The default application allows the URI; the hint's application does not.
        try await Self.expectRefused(
            harness, clientID: spaID, { [("id_token_hint", $0), ("post_logout_redirect_uri", Self.returnTo)] },
            saying: "Allowed Logout URLs")
        // A client_id other than the hint's audience.
        try await Self.expectRefused(
            harness, clientID: spaID,
            { [("id_token_hint", $0), ("client_id", harness.clientID), ("post_logout_redirect_uri", Self.returnTo)] },
            saying: "issued to another application")
        // The hint's own URL is fine.
        let flow = WebAuthFlow(harness)
        let logout = try await harness.router { http in
            let (cookie, idToken) = try await Self.session(http, flow, clientID: spaID)
            return try await Self.logout(
                http, [("id_token_hint", idToken), ("post_logout_redirect_uri", "https://spa.example/bye")],
                cookie: cookie)
        }
        #expect(logout.location == "https://spa.example/bye")
    }

    @Test func anUnknownClientIDAndARepeatedParameterAreRefused() async throws {
        let harness = try await TenantHarness()
        try await Self.expectRefused(harness, { _ in [("client_id", "nobody")] }, saying: "names no application")
        try await Self.expectRefused(
            harness, { _ in [("state", "a"), ("state", "b")] }, saying: "given more than once")
    }
}
