import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import Testing
import WebAuthn

/// `GET /authorize` (auth0-passkey-api.md §14.1, §14.2; RFC 6749 §4.1.2.1, RFC 7636, RFC 8252):
/// which requests get a 400 page, which an error redirect, and what the login page is.
@Suite struct WebAuthAuthorizeTests {
    static let csp =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// The headers every Web Auth page carries.
    static func expectPageHeaders(_ result: HTTPResult, csp: String = csp) {
        #expect(result.headers[.contentSecurityPolicy] == csp)
        #expect(result.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
        #expect(result.headers[.cacheControl] == "no-store")
        #expect(result.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
        #expect(result.headers[.xContentTypeOptions] == "nosniff")
    }

    @Test(arguments: [nil, "", "someone-else"] as [String?])
    func anUnknownOrMissingClientGetsAPageNotARedirect(clientID: String?) async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in try await flow.authorize(http, ["client_id": clientID]) }
        #expect(result.status == .badRequest)
        #expect(result.location == nil)
        #expect(result.headers[.contentType] == "text/html; charset=utf-8")
        #expect(result.text.contains("client_id"))
        Self.expectPageHeaders(result)
    }

    @Test(
        arguments: [
            nil, "http://127.0.0.1:53117/elsewhere", "https://127.0.0.1:53117/callback", "http://127.0.0.2:1/callback",
            "http://127.0.0.1:53117/callback?x=1", "http://127.0.0.1:53117/callback#frag", "http://127.0.0.1/callbackx",
            "http://evil.example/callback", "http://localhost.evil.example/callback", "http://user@127.0.0.1/callback",
            "com.example.app://localhost/callback",
        ] as [String?])
    func aRedirectURIThatIsNotAllowedGetsAPage(redirectURI: String?) async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in try await flow.authorize(http, ["redirect_uri": redirectURI]) }
        #expect(result.status == .badRequest, "\(redirectURI ?? "nil")")
        #expect(result.location == nil)
        #expect(result.text.contains("redirect_uri"))
        Self.expectPageHeaders(result)
    }

    @Test(arguments: [
        "http://127.0.0.1/callback", "http://127.0.0.1:1/callback", "http://127.0.0.1:65535/callback",
        "http://localhost:8080/callback", "http://localhost/callback",
    ])
    func loopbackCallbacksMatchOnAnyPort(redirectURI: String) async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in try await flow.authorize(http, ["redirect_uri": redirectURI]) }
        #expect(result.status == .ok, "\(redirectURI): \(result.text)")
    }

    @Test func aRegisteredCallbackWithAPortOrANonLoopbackHostMatchesExactly() async throws {
        var configuration = TenantConfiguration()
        configuration.callbackURLs = ["https://app.example/cb", "http://127.0.0.1:7000/cb"]
        let harness = try await TenantHarness(configuration: configuration)
        let flow = WebAuthFlow(harness)
        let results = try await harness.router { http in
            var results: [String: HTTPResponse.Status] = [:]
            for uri in [
                "https://app.example/cb", "https://app.example:444/cb", "http://127.0.0.1:7000/cb",
                "http://127.0.0.1:7001/cb", "http://127.0.0.1/callback",
            ] {
                results[uri] = try await flow.authorize(http, ["redirect_uri": uri]).status
            }
            return results
        }
        #expect(results["https://app.example/cb"] == .ok)
        #expect(results["https://app.example:444/cb"] == .badRequest)
        #expect(results["http://127.0.0.1:7000/cb"] == .ok)
        #expect(results["http://127.0.0.1:7001/cb"] == .badRequest)
        #expect(results["http://127.0.0.1/callback"] == .badRequest)
    }

    /// Refusals after the redirect URI is trusted: a 302 back with `error`, a description and `state`.
    @Test(
        arguments: [
            (["response_type": "token"], "unsupported_response_type"),
            (["response_type": nil], "unsupported_response_type"),
            (["code_challenge": nil], "invalid_request"),
            (["code_challenge_method": "plain"], "invalid_request"),
            (["code_challenge_method": nil], "invalid_request"),
            (["code_challenge": "short"], "invalid_request"),
            (["code_challenge": "z3cuvywc8W4YDiBEfGSpLffZUjB5mxuxw29Ucm6M5E+"], "invalid_request"),
            (["code_challenge": "z3cuvywc8W4YDiBEfGSpLffZUjB5mxuxw29Ucm6M5EEx"], "invalid_request"),
            (["audience": "https://elsewhere.example/"], "access_denied"),
            (["prompt": "none"], "login_required"),
            (["prompt": "none login"], "invalid_request"),
            (["max_age": "-1"], "invalid_request"),
            (["max_age": "soon"], "invalid_request"),
            (["connection": "other"], "invalid_request"),
        ] as [([String: String?], String)])
    func aRefusalRedirectsWithTheError(changes: [String: String?], error: String) async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in try await flow.authorize(http, changes) }
        #expect(result.status == .found, "\(changes)")
        let query = try flow.callbackQuery(try #require(result.location))
        #expect(query["error"] == error, "\(changes)")
        #expect(query["error_description"]?.isEmpty == false)
        #expect(query["state"] == flow.state)
        #expect(query["code"] == nil)
        Self.expectPageHeaders(result)
    }

    @Test func aRepeatedParameterIsRefused() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            try await http.send(.get, flow.authorizeURI() + "&scope=openid", contentType: nil)
        }
        #expect(result.status == .found)
        #expect(try flow.callbackQuery(try #require(result.location))["error"] == "invalid_request")
    }

    @Test func withoutStateTheErrorRedirectHasNone() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            try await flow.authorize(http, ["state": nil, "response_type": "id_token"])
        }
        let query = try flow.callbackQuery(try #require(result.location))
        #expect(query["state"] == nil)
        #expect(query["error"] == "unsupported_response_type")
    }

    @Test func theLoginPageHasTheFixedElementsAndNoInlineScript() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in try await flow.authorize(http) }
        #expect(result.status == .ok)
        #expect(result.headers[.contentType] == "text/html; charset=utf-8")
        Self.expectPageHeaders(result)
        let html = result.text
        #expect(html.contains(#"<form id="passkey-form" data-transaction=""#))
        #expect(
            html.contains(#"<input id="identifier" name="identifier" type="email" autocomplete="username webauthn">"#))
        #expect(html.contains(#"<button id="login" type="button">Continue with a passkey</button>"#))
        #expect(html.contains(#"<button id="signup" type="button">Sign up with a passkey</button>"#))
        #expect(html.contains(#"<p id="error" role="alert"></p>"#))
        #expect(html.components(separatedBy: "<script").count == 2)
        #expect(html.contains(#"<script src="/u/passkey.js" defer></script>"#))
        #expect(html.contains(#"<link rel="stylesheet" href="/u/passkey.css">"#))
        #expect(!html.contains("style="))
        #expect(!html.contains("onclick"))
        let page = try flow.page(result)
        #expect(try Base64URL(string: page.transaction).bytes.count == 32)
        let cookie = try #require(result.setCookies.first)
        #expect(cookie == "passkey_tx=\(page.transaction); HttpOnly; SameSite=Lax; Path=/u/")
    }

    @Test func eachPageHasItsOwnTransaction() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (first, second) = try await harness.router { http in
            (try flow.page(try await flow.authorize(http)), try flow.page(try await flow.authorize(http)))
        }
        #expect(first.transaction != second.transaction)
    }

    @Test func theLoginHintIsEscaped() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            try await flow.authorize(http, ["login_hint": #"ada@example.com"><script>alert('x')</script>"#])
        }
        #expect(result.status == .ok)
        #expect(
            result.text.contains(
                #"value="ada@example.com&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;""#))
        #expect(result.text.components(separatedBy: "<script").count == 2)
    }

    @Test func screenHintSignupShowsSignupFirst() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (login, signup) = try await harness.router { http in
            (try await flow.authorize(http).text, try await flow.authorize(http, ["screen_hint": "signup"]).text)
        }
        #expect(signup.contains("<h1>Sign up</h1>"))
        #expect(signup.contains(#"data-screen="signup""#))
        let signupButton = try #require(signup.range(of: #"id="signup""#))
        let loginButton = try #require(signup.range(of: #"id="login""#))
        #expect(signupButton.lowerBound < loginButton.lowerBound)
        #expect(login.contains("<h1>Log in</h1>"))
        let first = try #require(login.range(of: #"id="login""#))
        let second = try #require(login.range(of: #"id="signup""#))
        #expect(first.lowerBound < second.lowerBound)
    }

    @Test func pageConnectSourcesJoinTheCSP() async throws {
        var configuration = TenantConfiguration()
        configuration.pageConnectSources = ["http://127.0.0.1:*"]
        let harness = try await TenantHarness(configuration: configuration)
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in try await flow.authorize(http) }
        Self.expectPageHeaders(
            result,
            csp: Self.csp.replacingOccurrences(of: "connect-src 'self'", with: "connect-src 'self' http://127.0.0.1:*"))
    }

    @Test func thePageAssetsAreServed() async throws {
        let harness = try await TenantHarness()
        let (script, style) = try await harness.router { http in
            (
                try await http.send(.get, "/u/passkey.js", contentType: nil),
                try await http.send(.get, "/u/passkey.css", contentType: nil)
            )
        }
        #expect(script.status == .ok)
        #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
        #expect(script.text.contains("navigator.credentials.create"))
        #expect(script.text.contains("isConditionalMediationAvailable"))
        #expect(script.text.contains("/u/passkey/verify"))
        #expect(!script.text.contains("parseCreationOptionsFromJSON("))
        #expect(style.status == .ok)
        #expect(style.headers[.contentType] == "text/css; charset=utf-8")
        #expect(style.text.contains("#error"))
        Self.expectPageHeaders(script)
    }
}
