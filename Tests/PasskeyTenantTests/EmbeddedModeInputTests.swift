import Auth0Passkeys
import Foundation
import PasskeyTenant
import Testing
import WebAuthn

/// The embedded mode's refusals of bad input (every one a 400 with `invalid_request`, never a
/// 5xx) and of a bad invoke URL, which keeps the tenant from opening.
@Suite struct EmbeddedModeInputTests {
    @Test(arguments: [
        "", "?request=", "?request=unknown", "?request=a&request=b", "?other=1",
        "?request=" + String(repeating: "A", count: 65), "?request=%ZZ%00",
    ])
    func aBadRequestParameterIsRefused(query: String) async throws {
        try await EmbeddedProvider.run { provider in
            expectRefused(try await provider.get("/embedded/authenticate" + query), "invalid_request")
            expectRefused(
                try await provider.post("/embedded/authenticate" + query, body: #"{"error":"access_denied"}"#),
                "invalid_request")
            let page = try await provider.get("/embedded/continue" + query)
            #expect(page.status == 400)
            #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
        }
    }

    @Test(arguments: [
        ("", "application/json"), ("{", "application/json"), ("[]", "application/json"), ("null", "application/json"),
        ("{}", "application/json"), (#"{"error":"server_error"}"#, "application/json"),
        (#"{"error":7}"#, "application/json"), (#"{"credential":7}"#, "application/json"),
        (#"{"credential":{}}"#, "application/json"),
        (
            #"{"credential":{"id":"AQ","rawId":"AQ","type":"public-key","response":{}},"error":"access_denied"}"#,
            "application/json"
        ),
        (#"{"error":"access_denied"}"#, "text/plain"),
        ("a body over the tenant's 64 KiB", "application/json"),
    ])
    func aBadBodyIsRefused(body: String, contentType: String) async throws {
        let body =
            body.hasPrefix("a body over")
            ? #"{"error":"access_denied","pad":""# + String(repeating: "x", count: 70_000) + #""}"# : body
        try await EmbeddedProvider.run { provider in
            let url = try await provider.authenticateURL()
            _ = try await provider.get(url)
            expectRefused(try await provider.post(url, body: body, contentType: contentType), "invalid_request")
            // The request lives on: a refused body is not an answer.
            #expect(try await provider.get(url).status == 200)
        }
    }

    @Test func anAssertionWithNoPendingChallengeIsRefused() async throws {
        try await EmbeddedProvider.run { provider in
            let other = try await provider.authenticateURL()
            let assertion = try await provider.assertion(other)
            let url = try await provider.authenticateURL()
            expectRefused(try await provider.complete(url, assertion), "invalid_request")
        }
    }

    @Test(arguments: [
        "http://app.example/invoke", "ftp://app.example/invoke", "/invoke", "app.example/invoke",
        "https://app.example/invoke#frag", "https://user@app.example/invoke", "https://", "",
    ])
    func anInvokeURLThatIsNotHTTPSOrLoopbackKeepsTheTenantShut(url: String) async throws {
        var configuration = TenantConfiguration()
        configuration.applications = [TenantApplication(name: "app", appType: .native, invokeURL: url)]
        let error = await #expect(throws: TenantError.self) { try await PasskeyTenant(configuration: configuration) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.detail.hasPrefix("applications[0].invoke_url") == true, "\(error?.detail ?? "")")
        let option = #expect(throws: TenantError.self) {
            try TenantApplication(option: "name=app,app_type=native,invoke_url=\(url)")
        }
        #expect(option?.code == .invalidConfiguration)
    }

    @Test(arguments: [
        "https://app.example/invoke", "https://app.example:8443/launch?from=tenant", "http://127.0.0.1/invoke",
        "http://localhost:3000/invoke", "http://[::1]:9000/",
    ])
    func anHTTPSOrLoopbackInvokeURLIsTaken(url: String) throws {
        let option = try TenantApplication(option: "name=app,app_type=native,invoke_url=\(url)")
        #expect(option.invokeURL == url)
        var configuration = TenantConfiguration()
        let file = #"{"clients": [{"name": "app", "app_type": "native", "invoke_url": "\#(url)"}]}"#
        try configuration.apply(configurationFile: Array(file.utf8))
        #expect(configuration.applications.first?.invokeURL == url)
    }
}
