import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import Testing
import WebAuthn

/// A tenant with a single-page application as auth0-spa-js uses one — a public client whose page
/// is served from `http://localhost:3000`, calling back there — and a second one whose callback's
/// origin is none of its Allowed Web Origins; and a ``WebAuthFlow`` for the first.
struct SinglePageApp: Sendable {
    let harness: TenantHarness
    let flow: WebAuthFlow

    /// The app's page: an Allowed Web Origin.
    static let origin = "http://localhost:3000"
    /// An Allowed Origin (CORS) only, configured with a trailing `/`.
    static let corsOrigin = "https://api-explorer.example.org"
    /// Covered by the Allowed Web Origin `https://*.example.com`.
    static let subdomainOrigin = "https://shop.example.com"
    /// The second app's callback, whose origin is not an Allowed Web Origin of any app.
    static let otherCallback = "https://other.example.net/callback"

    /// The SPA.
    var spa: RegisteredApplication { harness.tenant.applications[0] }
    /// The app without web origins.
    var other: RegisteredApplication { harness.tenant.applications[1] }

    static var configuration: TenantConfiguration {
        var configuration = TenantConfiguration()
        var spa = TenantApplication(
            name: "spa", appType: .spa, callbacks: [origin + "/callback", "http://127.0.0.1/callback"])
        spa.webOrigins = [origin, "https://*.example.com"]
        spa.allowedOrigins = [corsOrigin + "/"]
        configuration.applications = [spa, TenantApplication(name: "other", appType: .spa, callbacks: [otherCallback])]
        return configuration
    }

    init() async throws {
        harness = try await TenantHarness(configuration: Self.configuration)
        var flow = WebAuthFlow(harness)
        flow.redirectURI = Self.origin + "/callback"
        self.flow = flow
    }

    /// `GET /authorize` for the SPA with `changes`, and the session cookie when given.
    func authorize(_ http: any TestClientProtocol, _ changes: [String: String?] = [:], session: String? = nil)
        async throws -> HTTPResult
    {
        try await flow.authorize(http, ["client_id": spa.clientID].merging(changes) { $1 }, session: session)
    }

    /// A signup on the login page in the default `query` mode: the login session cookie.
    func session(_ http: any TestClientProtocol, email: String = "ada@example.com") async throws -> String {
        try await flow.signUpForCode(http, ["client_id": spa.clientID], email: email).session
    }

    /// The code grant for the SPA, form-encoded from the page's origin, as auth0-spa-js sends it.
    func exchange(_ http: any TestClientProtocol, code: String, redirectURI: String? = nil) async throws -> HTTPResult {
        try await post(
            http, "/oauth/token",
            [
                ("grant_type", "authorization_code"), ("client_id", spa.clientID), ("code", code),
                ("code_verifier", flow.verifier), ("redirect_uri", redirectURI ?? flow.redirectURI),
            ])
    }

    /// The refresh grant for the SPA, from the page's origin.
    func refresh(_ http: any TestClientProtocol, _ token: String) async throws -> HTTPResult {
        try await post(
            http, "/oauth/token",
            [("grant_type", "refresh_token"), ("client_id", spa.clientID), ("refresh_token", token)])
    }

    /// `POST path` with `form`, with the page's `Origin`.
    func post(_ http: any TestClientProtocol, _ path: String, _ form: [(String, String)]) async throws -> HTTPResult {
        try await http.send(
            .post, path, raw: WebAuthFlow.query(form), contentType: "application/x-www-form-urlencoded",
            headers: [.origin: Self.origin])
    }

    /// The `data-response` JSON object and `data-origin` of a `web_message` page.
    static func webMessage(_ page: HTTPResult) throws -> (origin: String, response: [String: String]) {
        let html = page.text
        let origin = try attribute("data-origin", in: html)
        let json = try attribute("data-response", in: html)
        let response = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        return (origin, response)
    }

    /// The hidden fields and the action of a `form_post` page.
    static func formPost(_ page: HTTPResult) throws -> (action: String, fields: [String: String]) {
        let html = page.text
        let action = try attribute("action", in: html)
        var fields: [String: String] = [:]
        for line in html.split(separator: "\n") where line.hasPrefix("<input type=\"hidden\"") {
            fields[try attribute("name", in: String(line))] = try attribute("value", in: String(line))
        }
        return (action, fields)
    }

    /// The first value of the attribute `name` in `html`, unescaped.
    static func attribute(_ name: String, in html: String) throws -> String {
        let start = try #require(html.range(of: " \(name)=\""), "\(name) in \(html)")
        let value = String(html[start.upperBound...].prefix { $0 != "\"" })
        return
            value
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
