import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// Two real tenants over loopback (``UpstreamTenants``): **A**, at `http://localhost:PORT_A`,
/// with the upstream connection `idp` to **B**, B's regular web application `tenant-a`. A browser
/// (``TestBrowser``) drives the application's `/authorize` at A, B's own login page with a
/// software authenticator, and the way back to A's `/login/callback`; the application's back
/// channel is curl too.
@dynamicMemberLookup
struct UpstreamPair: Sendable {
    let tenants: UpstreamTenants
    let browser: TestBrowser
    let device: WebAuthnClient

    /// A's and B's members, as `pair.a`, `pair.bURL`.
    subscript<Value>(dynamicMember member: KeyPath<UpstreamTenants, Value>) -> Value { tenants[keyPath: member] }

    static let connection = "idp"
    static let clientID = "tenant-a"
    /// The application's redirect URI at A (a loopback callback of A's default application).
    static let redirectURI = "http://127.0.0.1:53117/callback"
    static let state = "app-state"
    static let nonce = "app-nonce"
    static let verifier = "CsRC8DIU_OGK3QTfW0W9ymwzTSt7EYc-6DpbRZwFNC8"
    static let challenge = "z3cuvywc8W4YDiBEfGSpLffZUjB5mxuxw29Ucm6M5EE"

    /// Serves B, then A with the connection `change` makes of the default one (issuer B, B's
    /// client for A), and runs `body` while both listen.
    ///
    /// - Parameters:
    ///   - change: changes the connection, given B's base URL.
    ///   - aClock: A's clock.
    ///   - body: the test.
    static func run(
        connection change: @Sendable (inout UpstreamConnection, _ bURL: String) -> Void = { _, _ in },
        aClock: TenantClock = .system,
        _ body: @Sendable (UpstreamPair) async throws -> Void
    ) async throws {
        try await UpstreamTenants.run(
            links: [.init(connection: connection, clientID: clientID)], aClock: aClock, connection: change
        ) { tenants in
            try await body(
                UpstreamPair(
                    tenants: tenants, browser: TestBrowser(caBundlePath: tenants.caBundlePath),
                    device: TenantHarness.device()))
        }
    }

    // MARK: The application's side

    /// The application's `/authorize` URL at A, with `connection=idp` unless `changes` says otherwise.
    func authorizeURL(_ changes: [String: String?] = [:]) -> String {
        var values: [String: String?] = [
            "response_type": "code", "client_id": tenants.a.clientID, "redirect_uri": Self.redirectURI,
            "state": Self.state,
            "nonce": Self.nonce, "scope": "openid profile email offline_access", "code_challenge": Self.challenge,
            "code_challenge_method": "S256", "connection": Self.connection,
        ]
        for (name, value) in changes { values[name] = value }
        let query = values.compactMap { name, value in value.map { "\(name)=\(WebAuthFlow.encode($0))" } }.sorted()
        return tenants.aURL + "/authorize?" + query.joined(separator: "&")
    }

    /// The application's `/authorize` at A: for an upstream connection, the redirect to B.
    func authorize(_ changes: [String: String?] = [:]) async throws -> HTTPResponse {
        try await browser.get(authorizeURL(changes))
    }

    /// B's login page at `location` (B's `/authorize`), then a passkey signup there (a login
    /// when `email` is nil): the redirect back to A's `/login/callback`.
    func logInAtB(_ location: String, email: String? = "ada@example.com") async throws -> String {
        let page = try await browser.get(location)
        #expect(page.status == 200, "\(String(decoding: page.body, as: UTF8.self))")
        let html = String(decoding: page.body, as: UTF8.self)
        let start = try #require(html.range(of: #"data-transaction=""#))
        let transaction = String(html[start.upperBound...].prefix { $0 != "\"" })
        let options = try await browser.post(
            tenants.bURL + "/u/passkey/options",
            json: PageOptionsRequest(
                transaction: transaction, mode: email == nil ? "login" : "signup", identifier: email))
        #expect(options.status == 200, "\(String(decoding: options.body, as: UTF8.self))")
        let origin = try WebOrigin(tenants.bURL)
        let credential: PasskeyResponse
        switch try JSONDecoder().decode(PageOptionsResponse.self, from: Data(options.body)) {
        case .create(let creation): credential = PasskeyResponse(try await device.create(creation, origin: origin))
        case .get(let request): credential = PasskeyResponse(try await device.get(request, origin: origin))
        }
        let verified = try await browser.post(
            tenants.bURL + "/u/passkey/verify",
            json: PageVerifyRequest(transaction: transaction, credential: credential))
        #expect(verified.status == 200, "\(String(decoding: verified.body, as: UTF8.self))")
        return try JSONDecoder().decode(PageVerifyResponse.self, from: Data(verified.body)).redirect.text
    }

    /// The whole story up to the application's redirect: A → B's page → A's callback.
    ///
    /// - Returns: A's answer at `/login/callback`.
    func logIn(email: String? = "ada@example.com", _ changes: [String: String?] = [:]) async throws -> HTTPResponse {
        let toB = try await authorize(changes)
        let location = try #require(toB.header("Location"), "\(toB.status)")
        return try await browser.get(try await logInAtB(location, email: email))
    }

    /// The query of a redirect to the application's redirect URI.
    func appQuery(_ response: HTTPResponse) throws -> [String: String] {
        #expect(response.status == 302, "\(response.status) \(String(decoding: response.body, as: UTF8.self))")
        let location = try #require(response.header("Location"))
        #expect(location.hasPrefix(Self.redirectURI + "?"), "\(location)")
        let components = try #require(URLComponents(string: location))
        return Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// The application's code exchange at A.
    func exchange(code: String) async throws -> [String: JSONValue] {
        let response = try await browser.postJSON(
            tenants.aURL + "/oauth/token",
            [
                "grant_type": "authorization_code", "client_id": tenants.a.clientID, "code": code,
                "code_verifier": Self.verifier, "redirect_uri": Self.redirectURI,
            ])
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        return try JSONDecoder().decode([String: JSONValue].self, from: Data(response.body))
    }
}
