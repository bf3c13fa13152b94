import Auth0Passkeys
import Foundation
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The tenant as a passkey provider in the embedded mode, served on a loopback port and spoken to
/// over the real libcurl transport: the browser's hops (`/authorize`, the continue URL), read
/// without following redirects, and the embedded SDK's calls at the authenticate URL, answered by
/// a ``VirtualDevice`` with a native app's origin `https://localhost`.
struct EmbeddedProvider: Sendable {
    let harness: TenantHarness
    let flow: WebAuthFlow
    let http: any TestClientProtocol
    /// `http://localhost:PORT`: the tenant as the browser reaches it (the RP ID's host).
    let baseURL: String
    let device: VirtualDevice

    /// A native app in the embedded mode.
    var native: RegisteredApplication { harness.tenant.applications[0] }
    /// A regular web app in the embedded mode whose invoke URL has a query.
    var web: RegisteredApplication { harness.tenant.applications[1] }
    /// A native app with the login page.
    var plain: RegisteredApplication { harness.tenant.applications[2] }

    static let nativeInvokeURL = "http://127.0.0.1/invoke"
    static let webInvokeURL = "https://app.example/launch?from=tenant"

    static var configuration: TenantConfiguration {
        var configuration = TenantConfiguration()
        let callbacks = ["http://127.0.0.1/callback"]
        configuration.applications = [
            TenantApplication(name: "native", appType: .native, callbacks: callbacks, invokeURL: nativeInvokeURL),
            TenantApplication(name: "web", appType: .regularWeb, callbacks: callbacks, invokeURL: webInvokeURL),
            TenantApplication(name: "plain", appType: .native, callbacks: callbacks),
        ]
        // An organization the signed-up user is not a member of.
        configuration.organizations = [TenantOrganization(name: "globex")]
        configuration.organizationUsage = .allow
        return configuration
    }

    /// Runs `body` against a fresh tenant with ``configuration`` and a user signed up natively with
    /// ``device``, served on a loopback port.
    static func run<Value: Sendable>(_ body: @Sendable (EmbeddedProvider) async throws -> Value) async throws -> Value {
        let clock = TestClock()
        let tenant = try await TestTenant.open(configuration: configuration, clock: clock.tenantClock)
        let device = VirtualDevice(store: InMemoryCredentialStore())
        let harness = TenantHarness(
            tenant: tenant, clock: clock, device: WebAuthnClient(authenticator: device.authenticator))
        return try await TestTenant.serve(tenant) { http, _ in
            _ = try await harness.signUp(http)
            var flow = WebAuthFlow(harness)
            flow.host = "localhost:\(http.port ?? 0)"
            let provider = EmbeddedProvider(
                harness: harness, flow: flow, http: http, baseURL: "http://\(flow.host)", device: device)
            return try await body(provider)
        }
    }

    /// `GET url` (a path is taken from ``baseURL``) with `cookie`, not following redirects.
    func get(_ url: String, cookie: String? = nil) async throws -> Auth0Passkeys.HTTPResponse {
        var headers = [(name: "Accept", value: "application/json")]
        if let cookie { headers.append((name: "Cookie", value: cookie)) }
        return try await CurlTransport().send(
            Auth0Passkeys.HTTPRequest(method: .get, url: url.hasPrefix("/") ? baseURL + url : url, headers: headers))
    }

    /// `POST url` with `body` as `contentType`.
    func post(_ url: String, body: String, contentType: String = "application/json") async throws
        -> Auth0Passkeys.HTTPResponse
    {
        try await CurlTransport().send(
            Auth0Passkeys.HTTPRequest(
                method: .post, url: url.hasPrefix("/") ? baseURL + url : url,
                headers: [(name: "Content-Type", value: contentType)], body: Array(body.utf8)))
    }

    /// `GET /authorize` for `client` with the flow's parameters changed by `changes`.
    func authorize(_ client: RegisteredApplication, _ changes: [String: String?] = [:], session: String? = nil)
        async throws -> Auth0Passkeys.HTTPResponse
    {
        var changes = changes
        changes["client_id"] = changes["client_id"] ?? client.clientID
        return try await get(flow.authorizeURI(changes), cookie: session.map { "passkey_session=\($0)" })
    }

    /// The authenticate URL `/authorize` hands `client`'s invoke URL.
    func authenticateURL(_ client: RegisteredApplication? = nil, _ changes: [String: String?] = [:]) async throws
        -> String
    {
        let redirect = try await authorize(client ?? native, changes)
        #expect(redirect.status == 302, "\(redirect.text)")
        let location = try #require(redirect.header("Location"))
        let items = try #require(URLComponents(string: location)?.queryItems)
        return try #require(items.first { $0.name == "url" }?.value)
    }

    /// `GET` the options at `url`, and ``device``'s assertion for them.
    func assertion(_ url: String) async throws -> AuthenticationResponseJSON {
        let options = try await get(url)
        #expect(options.status == 200, "\(options.text)")
        let publicKey = try JSONDecoder().decode(EmbeddedOptionsResponse.self, from: Data(options.body)).publicKey
        return try await device.get(publicKey, rpID: "localhost")
    }

    /// `POST` `credential` to `url`.
    func complete(_ url: String, _ credential: AuthenticationResponseJSON) async throws -> Auth0Passkeys.HTTPResponse {
        let body = try JSONEncoder().encode(EmbeddedAuthenticateRequest(credential: PasskeyResponse(credential)))
        return try await post(url, body: String(decoding: body, as: UTF8.self))
    }

    /// The `redirectUrl` of a 200 answer.
    static func redirectURL(_ answer: Auth0Passkeys.HTTPResponse) throws -> String {
        #expect(answer.status == 200, "\(answer.text)")
        return try JSONDecoder().decode(EmbeddedAuthenticateResponse.self, from: Data(answer.body)).redirectUrl.text
    }

    /// The `passkey_session` value an answer sets.
    static func sessionCookie(_ answer: Auth0Passkeys.HTTPResponse) throws -> String {
        let cookie = try #require(
            answer.headers.first { $0.name.lowercased() == "set-cookie" && $0.value.hasPrefix("passkey_session=") })
        return String(cookie.value.dropFirst("passkey_session=".count).prefix { $0 != ";" })
    }
}

/// Expects `answer` to be the JSON refusal `code` with a 400.
func expectRefused(
    _ answer: Auth0Passkeys.HTTPResponse, _ code: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(answer.status == 400, "\(answer.text)", sourceLocation: sourceLocation)
    #expect(answer.json["error"] == .string(code), "\(answer.text)", sourceLocation: sourceLocation)
    #expect(answer.json["error_description"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
}
