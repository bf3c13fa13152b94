import Auth0Passkeys
import Foundation
import HummingbirdTesting
import Logging
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// A tenant with an application of each kind besides its default native one, served on a loopback
/// port, and the real libcurl transport speaking to its token and revocation endpoints as a
/// confidential or public client would (RFC 6749 §2.3).
struct ClientApplications: Sendable {
    let harness: TenantHarness
    let flow: WebAuthFlow
    let baseURL: String
    let http: any TestClientProtocol

    /// A regular web app authenticating with `client_secret_basic`.
    var basic: RegisteredApplication { harness.tenant.applications[0] }
    /// A regular web app authenticating with `client_secret_post`.
    var post: RegisteredApplication { harness.tenant.applications[1] }
    /// A single-page app: a public client.
    var spa: RegisteredApplication { harness.tenant.applications[2] }
    /// A machine-to-machine app.
    var machine: RegisteredApplication { harness.tenant.applications[3] }

    /// The applications: callbacks on any loopback port, as ``WebAuthFlow``'s redirect URI.
    static var configuration: TenantConfiguration {
        var configuration = TenantConfiguration()
        let callbacks = ["http://127.0.0.1/callback"]
        configuration.applications = [
            TenantApplication(
                name: "web-basic", appType: .regularWeb, callbacks: callbacks,
                tokenEndpointAuthMethod: .clientSecretBasic),
            TenantApplication(name: "web-post", appType: .regularWeb, callbacks: callbacks),
            TenantApplication(name: "spa", appType: .spa, callbacks: callbacks),
            TenantApplication(name: "machine", appType: .nonInteractive),
        ]
        return configuration
    }

    /// Runs `body` against a fresh tenant with ``configuration``, served on a loopback port.
    static func run<Value: Sendable>(
        logger: Logger = Logger(label: "passkey-tenant", factory: { _ in SwiftLogNoOpLogHandler() }),
        _ body: @Sendable (ClientApplications) async throws -> Value
    ) async throws -> Value {
        let clock = TestClock()
        let tenant = try await TestTenant.open(configuration: configuration, clock: clock.tenantClock, logger: logger)
        let harness = TenantHarness(tenant: tenant, clock: clock, device: TenantHarness.device())
        return try await TestTenant.serve(tenant) { http, baseURL in
            var flow = WebAuthFlow(harness)
            flow.host = "localhost:\(http.port ?? 0)"
            return try await body(ClientApplications(harness: harness, flow: flow, baseURL: baseURL, http: http))
        }
    }

    /// An authorization code for `client`, from a signup on the login page.
    func code(for client: RegisteredApplication, email: String = "ada@example.com") async throws -> String {
        try await flow.signUpForCode(http, ["client_id": client.clientID], email: email).code
    }

    /// The code grant's form for `code`, with `extra` parameters after the grant's.
    func codeForm(_ code: String, _ extra: [(String, String)] = []) -> [(String, String)] {
        [
            ("grant_type", "authorization_code"), ("code", code), ("code_verifier", flow.verifier),
            ("redirect_uri", flow.redirectURI),
        ] + extra
    }

    /// `POST path` with `form` as `application/x-www-form-urlencoded`, and `authorization` as the
    /// `Authorization` header when given, over libcurl.
    func post(_ path: String, form: [(String, String)], authorization: String? = nil) async throws
        -> Auth0Passkeys.HTTPResponse
    {
        var headers = [(name: "Content-Type", value: "application/x-www-form-urlencoded")]
        if let authorization { headers.append((name: "Authorization", value: authorization)) }
        return try await CurlTransport().send(
            Auth0Passkeys.HTTPRequest(
                method: .post, url: baseURL + path, headers: headers,
                body: Array(WebAuthFlow.query(form).utf8)))
    }

    /// `Basic base64(urlencode(id) ":" urlencode(secret))` (RFC 6749 §2.3.1).
    static func basic(_ id: String, _ secret: String) -> String {
        basic(raw: WebAuthFlow.encode(id) + ":" + WebAuthFlow.encode(secret))
    }

    /// `Basic base64(text)`, `text` taken as it is.
    static func basic(raw text: String) -> String {
        "Basic " + Data(text.utf8).base64EncodedString()
    }
}

extension Auth0Passkeys.HTTPResponse {
    /// The body as a JSON object.
    var json: [String: JSONValue] {
        (try? JSONDecoder().decode([String: JSONValue].self, from: Data(body))) ?? [:]
    }

    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }
}
