import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import Testing
import WebAuthn

/// A Web Auth client for router tests: builds `/authorize` requests with PKCE, reads the login
/// page, runs its ceremonies with the harness's software authenticator from the page's origin
/// `http://localhost:8080`, and exchanges the code.
struct WebAuthFlow: Sendable {
    let harness: TenantHarness
    /// The page's host, sent as `Host`: the origin the browser would have.
    var host = "localhost:8080"
    var redirectURI = "http://127.0.0.1:53117/callback"
    var state = "af0ifjsldkj"
    var nonce = "n-0S6_WzA2Mj"
    /// The spec's PKCE pair (auth0-passkey-api.md §14.1).
    var verifier = "CsRC8DIU_OGK3QTfW0W9ymwzTSt7EYc-6DpbRZwFNC8"
    var challenge = "z3cuvywc8W4YDiBEfGSpLffZUjB5mxuxw29Ucm6M5EE"

    init(_ harness: TenantHarness) {
        self.harness = harness
    }

    var origin: WebOrigin { get throws { try WebOrigin("http://\(host)") } }

    /// The `/authorize` parameters, the defaults overridden by `changes` (nil removes one).
    func parameters(_ changes: [String: String?] = [:]) -> [(String, String)] {
        var values: [String: String?] = [
            "response_type": "code", "client_id": harness.clientID, "redirect_uri": redirectURI, "state": state,
            "nonce": nonce, "scope": "openid profile email offline_access", "code_challenge": challenge,
            "code_challenge_method": "S256",
        ]
        for (name, value) in changes { values[name] = value }
        return values.compactMap { name, value in value.map { (name, $0) } }.sorted { $0.0 < $1.0 }
    }

    /// `/authorize?…` with `parameters`.
    func authorizeURI(_ changes: [String: String?] = [:]) -> String {
        "/authorize?" + Self.query(parameters(changes))
    }

    static func query(_ parameters: [(String, String)]) -> String {
        parameters.map { "\($0)=\(encode($1))" }.joined(separator: "&")
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// `GET /authorize`, with the session cookie when given.
    func authorize(_ http: any TestClientProtocol, _ changes: [String: String?] = [:], session: String? = nil)
        async throws -> HTTPResult
    {
        var headers: HTTPFields = [HTTPField.Name("Host")!: host]
        if let session { headers[.cookie] = "passkey_session=\(session)" }
        return try await http.send(.get, authorizeURI(changes), contentType: nil, headers: headers)
    }

    /// The login page of an `/authorize` answer: its transaction and cookie.
    func page(_ result: HTTPResult) throws -> LoginPage {
        #expect(result.status == .ok, "\(result.text)")
        let html = result.text
        let start = try #require(html.range(of: #"data-transaction=""#))
        let transaction = String(html[start.upperBound...].prefix { $0 != "\"" })
        let cookie = try #require(result.setCookies.first { $0.hasPrefix("passkey_tx=") })
        #expect(cookie.hasPrefix("passkey_tx=\(transaction);"))
        return LoginPage(transaction: transaction)
    }

    /// Headers of a page API call: the transaction cookie, the page's `Origin` and `Host`.
    func pageHeaders(_ page: LoginPage, cookie: String? = nil, origin: String? = nil) -> HTTPFields {
        var headers: HTTPFields = [HTTPField.Name("Host")!: host]
        headers[.cookie] = "passkey_tx=\(cookie ?? page.transaction)"
        headers[.origin] = origin ?? "http://\(host)"
        return headers
    }

    /// `POST /u/passkey/options`.
    func options(
        _ http: any TestClientProtocol, _ page: LoginPage, mode: String, identifier: String? = nil,
        headers: HTTPFields? = nil
    ) async throws -> HTTPResult {
        try await http.send(
            .post, "/u/passkey/options",
            json: PageOptionsRequest(transaction: page.transaction, mode: mode, identifier: identifier),
            headers: headers ?? pageHeaders(page))
    }

    /// `POST /u/passkey/verify`.
    func verify(
        _ http: any TestClientProtocol, _ page: LoginPage, credential: PasskeyResponse, headers: HTTPFields? = nil
    ) async throws -> HTTPResult {
        try await http.send(
            .post, "/u/passkey/verify", json: PageVerifyRequest(transaction: page.transaction, credential: credential),
            headers: headers ?? pageHeaders(page))
    }

    /// The page's signup with `device` (the harness's by default): options, `create`, verify.
    func signUp(
        _ http: any TestClientProtocol, _ page: LoginPage, email: String = "ada@example.com",
        device: WebAuthnClient? = nil
    ) async throws -> HTTPResult {
        let options = try await self.options(http, page, mode: "signup", identifier: email)
        guard options.status == .ok else { throw HarnessError(options) }
        let created = try options.decode(PageOptionsResponse.self)
        guard case .create(let creation) = created else { throw HarnessError(options) }
        let registration = try await (device ?? harness.device).create(creation, origin: origin)
        return try await verify(http, page, credential: PasskeyResponse(registration))
    }

    /// The page's login with `device`: options, `get`, verify.
    func logIn(_ http: any TestClientProtocol, _ page: LoginPage, device: WebAuthnClient? = nil) async throws
        -> HTTPResult
    {
        let options = try await self.options(http, page, mode: "login")
        guard options.status == .ok else { throw HarnessError(options) }
        guard case .get(let request) = try options.decode(PageOptionsResponse.self) else {
            throw HarnessError(options)
        }
        let assertion = try await (device ?? harness.device).get(request, origin: origin)
        return try await verify(http, page, credential: PasskeyResponse(assertion))
    }

    /// A whole signup through `/authorize`: the code and the login session cookie.
    func signUpForCode(
        _ http: any TestClientProtocol, _ changes: [String: String?] = [:], email: String = "ada@example.com"
    ) async throws -> (code: String, session: String) {
        let page = try page(try await authorize(http, changes))
        let verified = try await signUp(http, page, email: email)
        return try codeAndSession(verified)
    }

    /// A whole login through `/authorize`: the code and the login session cookie.
    func logInForCode(_ http: any TestClientProtocol, _ changes: [String: String?] = [:]) async throws
        -> (code: String, session: String)
    {
        let page = try page(try await authorize(http, changes))
        return try codeAndSession(try await logIn(http, page))
    }

    /// The code of a verify answer, and its session cookie.
    func codeAndSession(_ verified: HTTPResult) throws -> (code: String, session: String) {
        guard verified.status == .ok else { throw HarnessError(verified) }
        let redirect = try verified.decode(PageVerifyResponse.self).redirect.text
        let query = try callbackQuery(redirect)
        #expect(query["state"] == state)
        let cookie = try #require(verified.setCookies.first { $0.hasPrefix("passkey_session=") })
        let session = String(cookie.dropFirst("passkey_session=".count).prefix { $0 != ";" })
        return (try #require(query["code"]), session)
    }

    /// The code of a redirect to the redirect URI.
    func code(_ redirect: HTTPResult) throws -> String {
        let location = try #require(redirect.location, "\(redirect.status) \(redirect.text)")
        return try #require(try callbackQuery(location)["code"])
    }

    /// The query of a redirect to the redirect URI.
    func callbackQuery(_ location: String) throws -> [String: String] {
        #expect(location.hasPrefix(redirectURI + "?"), "\(location)")
        let components = try #require(URLComponents(string: location))
        return Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// The authorization code grant, as JSON, by `clientID` (by default the default application).
    func exchange(
        _ http: any TestClientProtocol, code: String, verifier: String? = nil, redirectURI: String? = nil,
        clientID: String? = nil
    ) async throws -> HTTPResult {
        try await http.send(
            .post, "/oauth/token",
            json: TokenRequest(
                grantType: TokenRequest.authorizationCodeGrant, clientID: clientID ?? harness.clientID,
                code: Secret(code),
                codeVerifier: Secret(verifier ?? self.verifier), redirectURI: redirectURI ?? self.redirectURI))
    }
}

/// A login page served by `/authorize`.
struct LoginPage: Sendable {
    let transaction: String
}

extension HTTPResult {
    /// The `Set-Cookie` values.
    var setCookies: [String] { headers[values: .setCookie] }

    /// The `Location` header.
    var location: String? { headers[.location] }
}
