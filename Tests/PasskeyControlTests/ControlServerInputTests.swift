import Auth0Passkeys
import Foundation
import PasskeyControl
import Testing
import WebAuthn

/// Bad input: each a 4xx in the WebDriver error shape, never a 5xx, and nothing changes.
@Suite struct ControlServerInputTests {
    @Test func everyRouteNeedsTheBearerToken() async throws {
        try await withControlServer { client in
            for token in [nil, "wrong", ""] {
                let stranger = ControlClient(baseURL: client.baseURL, token: token)
                for (method, path) in [("POST", "/session"), ("GET", "/metrics"), ("GET", "/nowhere")] {
                    let answer = try await stranger.send(method == "POST" ? .post : .get, path)
                    #expect(answer.status == 401, "\(path)")
                    #expect(answer.error == "unauthorized")
                }
            }
            #expect(try await client.send(.post, "/session").status == 200)
        }
    }

    @Test func badInputIsA4xxAndChangesNothing() async throws {
        try await withControlServer { client in
            let session = try await client.newSession()
            let authenticator = try await client.addAuthenticator(session, #"{"softpasskey:profile":"security-key"}"#)
            let path = "/session/\(session)/webauthn/authenticator/\(authenticator)"
            let created = try await client.send(
                .post, path + "/create", #"{"origin":"https://example.com","options":\#(creationOptions())}"#)
            #expect(created.status == 200, "\(created.text)")
            let before = try await client.send(.get, path + "/credentials").body

            let oversize = "{\"origin\":\"" + String(repeating: "a", count: 70_000) + "\"}"
            let cases: [(HTTPMethodName, String, String?, Int, String)] = [
                (.post, path + "/create", "{not json", 400, "SyntaxError"),
                (.post, path + "/create", #"{"origin":"https://example.com"}"#, 400, "SyntaxError"),
                (.post, path + "/create", oversize, 413, "invalid argument"),
                (
                    .post, path + "/get",
                    #"{"origin":"https://evil.example","options":{"rpId":"example.com","challenge":"AAAAAAAAAAAAAAAAAAAAAA"}}"#,
                    400, "SecurityError"
                ),
                (
                    .post, path + "/get",
                    #"{"origin":"https://example.com","options":{"rpId":"example.com","challenge":"AAAAAAAAAAAAAAAAAAAAAA","allowCredentials":[{"type":"public-key","id":"AAAA"}]}}"#,
                    400, "NotAllowedError"
                ),
                (
                    .post, path + "/create",
                    #"{"origin":"https://example.com","options":\#(creationOptions(user: "ada"))}"#
                        .replacingOccurrences(of: "\"alg\":-7", with: "\"alg\":-999"), 400, "NotSupportedError"
                ),
                (
                    .post, "/session/\(session)/webauthn/authenticator/unknown/get",
                    #"{"origin":"https://example.com","options":\#(requestOptions(challenge: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]))}"#,
                    400, "invalid argument"
                ),
                (
                    .post, "/session/nosuchsession/webauthn/authenticator", #"{"softpasskey:profile":"platform"}"#, 404,
                    "invalid session id"
                ),
                (.delete, path + "/credentials/!!!", nil, 400, "invalid argument"),
                (.delete, path + "/credentials/AAAA", nil, 400, "invalid argument"),
                (
                    .post, path + "/credential",
                    #"{"credentialId":"AAAA","isResidentCredential":false,"rpId":"example.com","privateKey":"AAAA","signCount":0}"#,
                    400, "invalid argument"
                ),
                (
                    .post, path + "/credential",
                    #"{"credentialId":"AAAA","isResidentCredential":true,"rpId":"example.com","privateKey":"AAAA","signCount":-1}"#,
                    400, "invalid argument"
                ),
                (.post, path + "/uv", #"{"isUserVerified":"no"}"#, 400, "invalid argument"),
                (.post, path + "/credentials/AAAA/props", #"{"signCount":5}"#, 400, "invalid argument"),
                (
                    .post, "/session/\(session)/users",
                    #"{"tenant":{"clientId":"x"},"authenticatorId":"\#(authenticator)"}"#, 400, "invalid argument"
                ),
                (
                    .post, "/session/\(session)/users",
                    #"{"tenant":{"clientId":"x","baseURL":"http://example.com"},"authenticatorId":"\#(authenticator)"}"#,
                    400, "invalid argument"
                ),
                (.post, "/session/\(session)/users/nobody/login", "{}", 400, "invalid argument"),
                (.get, "/session/\(session)/nothing/here", nil, 404, "unknown command"),
            ]
            for (method, route, body, status, error) in cases {
                let answer = try await client.send(method.method, route, body)
                #expect(answer.status == status, "\(route) \(answer.text)")
                #expect(answer.error == error, "\(route) \(answer.text)")
                #expect(answer.status < 500)
            }
            #expect(try await client.send(.get, path + "/credentials").body == before)
        }
    }

    @Test func metricsCountCeremoniesByOutcomeInPrometheusText() async throws {
        try await withControlServer { client in
            let session = try await client.newSession()
            let authenticator = try await client.addAuthenticator(session, #"{"softpasskey:profile":"platform"}"#)
            let path = "/session/\(session)/webauthn/authenticator/\(authenticator)"
            _ = try await client.send(
                .post, path + "/create", #"{"origin":"https://example.com","options":\#(creationOptions())}"#)
            _ = try await client.send(
                .post, path + "/get",
                #"{"origin":"https://example.com","options":\#(requestOptions(challenge: SecureRandom.bytes(16)))}"#)
            _ = try await client.send(
                .post, path + "/get",
                #"{"origin":"https://example.com","options":\#(requestOptions(rpID: "other.example", challenge: SecureRandom.bytes(16)))}"#
            )
            let metrics = try await client.send(.get, "/metrics").text
            #expect(metrics.contains(#"passkey_operations_total{operation="create",outcome="ok"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"passkey_operations_total{operation="get",outcome="ok"} 1"#))
            #expect(metrics.contains(#"passkey_operations_total{operation="get",outcome="SecurityError"} 1"#))
            #expect(metrics.contains(#"passkey_operation_duration_seconds_count{operation="get"} 1"#))
            #expect(metrics.contains("passkey_requests_total"))
        }
    }
}

/// The methods the cases use, as text in the table.
enum HTTPMethodName {
    case get, post, delete

    var method: Auth0Passkeys.HTTPRequest.Method {
        switch self {
        case .get: .get
        case .post: .post
        case .delete: .delete
        }
    }
}
