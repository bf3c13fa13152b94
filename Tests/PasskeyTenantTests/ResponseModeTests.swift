import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import Testing
import WebAuthn

/// `response_mode` at `GET /authorize` (OAuth 2.0 Multiple Response Type Encoding Practices §2.1,
/// OAuth 2.0 Form Post Response Mode, Auth0's `web_message`): how the code or the error goes back,
/// over a login session and after the login page, and what each page lets a browser do.
@Suite struct ResponseModeTests {
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!

    @Test func fragmentPutsTheCodeAfterTheHash() async throws {
        let app = try await SinglePageApp()
        let result = try await app.harness.router { http in
            let session = try await app.session(http)
            return try await app.authorize(http, ["response_mode": "fragment"], session: session)
        }
        #expect(result.status == .found)
        let location = try #require(result.location)
        let prefix = app.flow.redirectURI + "#"
        #expect(location.hasPrefix(prefix), "\(location)")
        let fields = try #require(URLComponents(string: "?" + location.dropFirst(prefix.count))?.queryItems)
        #expect(fields.map(\.name) == ["code", "state"])
        #expect(fields.last?.value == app.flow.state)
    }

    @Test func formPostIsAFormToTheRedirectURIThatTheTenantsScriptSubmits() async throws {
        let app = try await SinglePageApp()
        let result = try await app.harness.router { http in
            let session = try await app.session(http)
            return try await app.authorize(http, ["response_mode": "form_post"], session: session)
        }
        #expect(result.status == .ok)
        #expect(result.location == nil)
        let (action, fields) = try SinglePageApp.formPost(result)
        #expect(action == app.flow.redirectURI)
        #expect(fields["state"] == app.flow.state)
        #expect(fields["code"]?.isEmpty == false)
        #expect(result.text.contains("<form id=\"authorization-response\" method=\"post\""))
        #expect(result.text.contains("<script src=\"/u/passkey.js\" defer></script>"))
        #expect(!result.text.contains("<script>"))
        let csp = try #require(result.headers[.contentSecurityPolicy])
        #expect(csp.contains("script-src 'self';"))
        #expect(csp.contains("form-action \(SinglePageApp.origin);"))
        #expect(csp.hasSuffix("frame-ancestors 'none'"))
        #expect(result.headers[Self.xFrameOptions] == "DENY")
    }

    @Test func webMessagePostsToTheRegisteredOriginAndOnlyItMayFrameThePage() async throws {
        let app = try await SinglePageApp()
        let result = try await app.harness.router { http in
            let session = try await app.session(http)
            return try await app.authorize(http, ["response_mode": "web_message", "prompt": "none"], session: session)
        }
        #expect(result.status == .ok)
        let (origin, response) = try SinglePageApp.webMessage(result)
        #expect(origin == SinglePageApp.origin)
        #expect(Set(response.keys) == ["code", "state"])
        #expect(response["state"] == app.flow.state)
        let csp = try #require(result.headers[.contentSecurityPolicy])
        #expect(csp.hasSuffix("frame-ancestors \(SinglePageApp.origin)"))
        #expect(csp.contains("form-action 'self';"))
        #expect(result.headers[Self.xFrameOptions] == nil)
        #expect(!result.text.contains("<script>"))
    }

    @Test func theWebMessagesCodeIsExchangedForTokensFromThePagesOrigin() async throws {
        let app = try await SinglePageApp()
        let result = try await app.harness.router { http in
            let session = try await app.session(http)
            let page = try await app.authorize(
                http, ["response_mode": "web_message", "prompt": "none"], session: session)
            return try await app.exchange(http, code: try #require(try SinglePageApp.webMessage(page).response["code"]))
        }
        #expect(result.status == .ok, "\(result.text)")
        #expect(result.json["access_token"] != nil)
        #expect(result.json["refresh_token"] != nil)
        #expect(result.headers[.accessControlAllowOrigin] == SinglePageApp.origin)
    }

    @Test func silentAuthenticationWithoutASessionIsLoginRequiredAsAWebMessage() async throws {
        let app = try await SinglePageApp()
        let (none, unknown) = try await app.harness.router { http in
            (
                try await app.authorize(http, ["response_mode": "web_message", "prompt": "none"]),
                try await app.authorize(
                    http, ["response_mode": "web_message", "prompt": "none"], session: "not-a-session")
            )
        }
        for result in [none, unknown] {
            #expect(result.status == .ok)
            let (origin, response) = try SinglePageApp.webMessage(result)
            #expect(origin == SinglePageApp.origin)
            #expect(response["error"] == "login_required")
            #expect(response["state"] == app.flow.state)
            #expect(response["code"] == nil)
            #expect(result.setCookies.isEmpty)
        }
    }

    @Test(arguments: [
        (SinglePageApp.otherCallback, "other"), ("http://127.0.0.1:4000/callback", "spa"),
    ])
    func webMessageToAnOriginThatIsNotAWebOriginIsRefusedWithAPage(redirectURI: String, app name: String)
        async throws
    {
        let app = try await SinglePageApp()
        let client = name == "spa" ? app.spa : app.other
        let (result, loggedIn) = try await app.harness.router { http in
            let session = try await app.session(http)
            let changes: [String: String?] = [
                "client_id": client.clientID, "redirect_uri": redirectURI, "response_mode": "web_message",
            ]
            return (
                try await app.authorize(http, changes.merging(["prompt": "none"]) { $1 }),
                try await app.authorize(http, changes, session: session)
            )
        }
        for page in [result, loggedIn] {
            #expect(page.status == .badRequest)
            #expect(page.location == nil)
            #expect(!page.text.contains("data-response"))
            #expect(page.text.contains("Allowed Web Origins"))
            #expect(page.headers[Self.xFrameOptions] == "DENY")
        }
    }

    @Test(arguments: ["https://evil.example/callback", "https://evil.example", "http://localhost:3001/callback"])
    func webMessageWithAForeignRedirectURIGetsAPage(redirectURI: String) async throws {
        let app = try await SinglePageApp()
        let result = try await app.harness.router { http in
            let session = try await app.session(http)
            return try await app.authorize(
                http, ["redirect_uri": redirectURI, "response_mode": "web_message", "prompt": "none"],
                session: session)
        }
        #expect(result.status == .badRequest)
        #expect(result.location == nil)
        #expect(result.text.contains("Allowed Web Origins"))
        #expect(!result.text.contains("data-response"))
    }

    @Test func webMessageTakesThePagesOriginAsRedirectURIAsAuth0SPAJSSendsIt() async throws {
        let app = try await SinglePageApp()
        let (page, query, tokens) = try await app.harness.router { http in
            let session = try await app.session(http)
            let changes = ["redirect_uri": SinglePageApp.origin, "prompt": "none"]
            let page = try await app.authorize(
                http, changes.merging(["response_mode": "web_message"]) { $1 }, session: session)
            let query = try await app.authorize(http, changes, session: session)
            let code = try #require(try SinglePageApp.webMessage(page).response["code"])
            return (page, query, try await app.exchange(http, code: code, redirectURI: SinglePageApp.origin))
        }
        #expect(try SinglePageApp.webMessage(page).origin == SinglePageApp.origin)
        #expect(query.status == .badRequest, "not a callback: no other mode answers it")
        #expect(tokens.status == .ok, "\(tokens.text)")
    }

    @Test(arguments: ["token", "WEB_MESSAGE", "form_post ", "query.jwt"])
    func anUnknownResponseModeIsAnInvalidRequestInTheQuery(mode: String) async throws {
        let app = try await SinglePageApp()
        let result = try await app.harness.router { http in try await app.authorize(http, ["response_mode": mode]) }
        #expect(result.status == .found)
        let query = try app.flow.callbackQuery(try #require(result.location))
        #expect(query["error"] == "invalid_request")
        #expect(query["error_description"]?.contains("response_mode") == true)
        #expect(query["state"] == app.flow.state)
    }

    @Test func aRepeatedResponseModeIsAnInvalidRequestInTheQuery() async throws {
        let app = try await SinglePageApp()
        let uri =
            app.flow.authorizeURI(["client_id": app.spa.clientID, "response_mode": "web_message"])
            + "&response_mode=form_post"
        let result = try await app.harness.router { http in
            try await http.send(.get, uri, contentType: nil, headers: [HTTPField.Name("Host")!: app.flow.host])
        }
        #expect(result.status == .found)
        let query = try app.flow.callbackQuery(try #require(result.location))
        #expect(query["error"] == "invalid_request")
        #expect(query["error_description"] == "Parameter response_mode is given more than once.")
    }

    @Test(arguments: ["fragment", "form_post", "web_message"])
    func laterRefusalsGoBackInTheRequestsMode(mode: String) async throws {
        let app = try await SinglePageApp()
        let result = try await app.harness.router { http in
            try await app.authorize(http, ["response_mode": mode, "code_challenge": nil])
        }
        let fields: [String: String]
        switch mode {
        case "fragment":
            let location = try #require(result.location)
            #expect(location.hasPrefix(app.flow.redirectURI + "#error=invalid_request&"))
            fields = ["state": app.flow.state]
        case "form_post": fields = try SinglePageApp.formPost(result).fields
        default: fields = try SinglePageApp.webMessage(result).response
        }
        if mode != "fragment" {
            #expect(fields["error"] == "invalid_request")
            #expect(fields["error_description"]?.contains("code_challenge") == true)
        }
        #expect(fields["state"] == app.flow.state)
    }

    @Test(arguments: ["form_post", "web_message"])
    func theLoginPageEndsOnTheResponsePageOnce(mode: String) async throws {
        let app = try await SinglePageApp()
        let (verified, first, second, exchanged) = try await app.harness.router { http in
            let page = try app.flow.page(
                try await app.authorize(http, ["response_mode": mode, "scope": "openid offline_access"]))
            let verified = try await app.flow.signUp(http, page)
            let cookie: HTTPFields = [.cookie: "passkey_tx=\(page.transaction)"]
            let first = try await http.send(.get, "/u/passkey/response", contentType: nil, headers: cookie)
            let second = try await http.send(.get, "/u/passkey/response", contentType: nil, headers: cookie)
            let code =
                mode == "form_post"
                ? try SinglePageApp.formPost(first).fields["code"]
                : try SinglePageApp.webMessage(first).response["code"]
            return (verified, first, second, try await app.exchange(http, code: try #require(code)))
        }
        #expect(try verified.decode(PageVerifyResponse.self).redirect.text == "/u/passkey/response")
        #expect(verified.setCookies.contains { $0.hasPrefix("passkey_session=") })
        #expect(first.status == .ok)
        #expect(second.status == .badRequest)
        #expect(exchanged.status == .ok, "\(exchanged.text)")
        #expect(exchanged.json["refresh_token"] != nil)
    }

    @Test func theResponsePageNeedsTheTransactionCookieAndLeavesAPendingPageAlone() async throws {
        let app = try await SinglePageApp()
        let (none, pending, verified) = try await app.harness.router { http in
            let page = try app.flow.page(try await app.authorize(http, ["response_mode": "form_post"]))
            let cookie: HTTPFields = [.cookie: "passkey_tx=\(page.transaction)"]
            return (
                try await http.send(.get, "/u/passkey/response", contentType: nil),
                try await http.send(.get, "/u/passkey/response", contentType: nil, headers: cookie),
                try await app.flow.signUp(http, page)
            )
        }
        #expect(none.status == .badRequest)
        #expect(pending.status == .badRequest)
        #expect(verified.status == .ok, "\(verified.text)")
    }

    @Test func theLoginPageInFragmentModeRedirectsWithAFragment() async throws {
        let app = try await SinglePageApp()
        let verified = try await app.harness.router { http in
            let page = try app.flow.page(try await app.authorize(http, ["response_mode": "fragment"]))
            return try await app.flow.signUp(http, page)
        }
        let redirect = try verified.decode(PageVerifyResponse.self).redirect.text
        #expect(redirect.hasPrefix(app.flow.redirectURI + "#code="), "\(redirect)")
    }
}
