import Auth0Passkeys
import Foundation
import PasskeyControl
import TestSupport
import Testing
import WebAuthn

/// A control server's client for the tests: the real libcurl transport over loopback, bodies as
/// JSON values, answers as status and JSON.
struct ControlClient: Sendable {
    let baseURL: String
    let token: String?
    let transport: CurlTransport

    /// A client of the server at `baseURL`; `timeout` bounds each exchange (30 seconds by default).
    init(baseURL: String, token: String?, timeout: Duration = .seconds(30)) {
        self.baseURL = baseURL
        self.token = token
        self.transport = CurlTransport(configuration: .init(timeout: timeout))
    }

    /// One request; `body` is JSON text.
    func send(
        _ method: HTTPRequest.Method, _ path: String, _ body: String? = nil,
        headers extra: [(name: String, value: String)] = []
    ) async throws -> Answer {
        var headers: [(name: String, value: String)] = extra
        if let token { headers.append((name: "Authorization", value: "Bearer \(token)")) }
        if body != nil { headers.append((name: "Content-Type", value: "application/json")) }
        let response = try await transport.send(
            HTTPRequest(method: method, url: baseURL + path, headers: headers, body: body.map { Array($0.utf8) }))
        return Answer(
            status: response.status, headers: response.headers, body: response.body,
            json: try? JSONValue(json: response.body))
    }

    /// `POST /session`'s session ID.
    func newSession() async throws -> String {
        let answer = try await send(.post, "/session")
        return try #require(answer.value?["sessionId"]?.stringValue)
    }

    /// Adds an authenticator and returns its ID.
    func addAuthenticator(_ session: String, _ configuration: String) async throws -> String {
        let answer = try await send(.post, "/session/\(session)/webauthn/authenticator", configuration)
        return try #require(answer.value?.stringValue, "\(answer.text)")
    }

    struct Answer: Sendable {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: [UInt8]
        let json: JSONValue?

        var value: JSONValue? { json?["value"] }
        var text: String { String(decoding: body, as: UTF8.self) }
        /// The WebDriver error code of an error answer.
        var error: String? { value?["error"]?.stringValue }
        /// The `value` member's JSON text.
        var valueBytes: [UInt8] { value?.json ?? [] }

        /// The first value of a header, by case-insensitive name.
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }
}

/// Runs `body` with a control server on a free loopback port and a client holding its token;
/// `timeout` bounds each of the client's exchanges.
func withControlServer<Value: Sendable>(
    service: ControlService = ControlService(), timeout: Duration = .seconds(30),
    _ body: @Sendable (ControlClient) async throws -> Value
) async throws -> Value {
    let token = ControlToken.random()
    return try await ControlServer(service: service, token: token).serving { endpoint in
        try await body(ControlClient(baseURL: endpoint.url, token: token.value, timeout: timeout))
    }
}

/// Creation options for `rpID` as a relying party sends them.
func creationOptions(
    rpID: String = "example.com", user: String = "ada", residentKey: String = "required",
    userVerification: String = "preferred", extensions: String = "{}"
) -> String {
    let userID = Base64URL.encode(Array(user.utf8))
    let challenge = Base64URL.encode(SecureRandom.bytes(32))
    return """
        {"rp":{"id":"\(rpID)","name":"Example"},"user":{"id":"\(userID)","name":"\(user)","displayName":"\(user)"},
        "challenge":"\(challenge)","pubKeyCredParams":[{"type":"public-key","alg":-7}],
        "authenticatorSelection":{"residentKey":"\(residentKey)","userVerification":"\(userVerification)"},
        "extensions":\(extensions)}
        """
}

/// Request options for `rpID`, with an allow list when given.
func requestOptions(
    rpID: String = "example.com", challenge: [UInt8], allow: [String] = [],
    userVerification: String = "preferred"
) -> String {
    let allowed = allow.map { #"{"type":"public-key","id":"\#($0)"}"# }.joined(separator: ",")
    return """
        {"rpId":"\(rpID)","challenge":"\(Base64URL.encode(challenge))","allowCredentials":[\(allowed)],
        "userVerification":"\(userVerification)"}
        """
}
