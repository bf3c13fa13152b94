import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import Testing
import WebAuthn

/// Bad input of every kind answers 4xx in the API's error shape, never 5xx, and stores nothing
/// (issue 4, "Bad input").
@Suite struct BadInputTests {
    static let postEndpoints = ["/passkey/register", "/passkey/challenge", "/oauth/token", "/oauth/revoke"]

    static let malformedBodies = [
        "", "{", "[]", "null", #""client_id""#, #"{"client_id":7}"#, #"{"client_id":null}"#, "{\"client_id\":\"\u{1}\"",
    ]

    @Test(arguments: postEndpoints, malformedBodies)
    func malformedJSONIsInvalidRequest(path: String, body: String) async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in try await http.send(.post, path, raw: body) }
        #expect(result.status == .badRequest, "\(path) \(body): \(result.text)")
        #expect(result.errorCode == "invalid_request")
        #expect(result.json["error_description"]?.stringValue?.isEmpty == false)
    }

    @Test(arguments: postEndpoints)
    func aMissingClientIDIsInvalidRequest(path: String) async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in try await http.send(.post, path, raw: "{}") }
        #expect(result.status == .badRequest)
        #expect(result.json["error_description"]?.stringValue?.contains("client_id") == true, "\(result.text)")
    }

    @Test(arguments: postEndpoints, [nil, "text/plain", "application/x-www-form-urlencoded"])
    func anotherContentTypeIsRefused(path: String, contentType: String?) async throws {
        // The token and revocation endpoints also read OAuth's form encoding (RFC 6749 §4.1.3, RFC 7009 §2.1):
        // WebAuthFormBodyTests, ClientAuthenticationTests.
        guard !(path.hasPrefix("/oauth/") && contentType == "application/x-www-form-urlencoded") else { return }
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(.post, path, raw: #"{"client_id":"\#(harness.clientID)"}"#, contentType: contentType)
        }
        expectRefused(result, "unsupported_media_type", status: .unsupportedMediaType)
    }

    @Test func aCharsetParameterIsFine() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(
                .post, "/passkey/challenge", raw: #"{"client_id":"\#(harness.clientID)"}"#,
                contentType: "application/json; charset=utf-8")
        }
        #expect(result.status == .ok)
    }

    @Test(arguments: postEndpoints)
    func anOversizeBodyIsRefused(path: String) async throws {
        let harness = try await TenantHarness()
        let padding = String(repeating: "a", count: 70 * 1024)
        let result = try await harness.router { http in
            try await http.send(.post, path, raw: #"{"client_id":"\#(padding)"}"#)
        }
        #expect(result.status == .contentTooLarge, "\(result.text)")
        #expect(result.errorCode == "payload_too_large")
    }

    @Test func anUnknownPathIsNotFoundInJSON() async throws {
        let harness = try await TenantHarness()
        let (unknown, me) = try await harness.router { http in
            (try await http.send(.get, "/nothing/here"), try await http.send(.get, "/me/v1/nothing"))
        }
        expectRefused(unknown, "not_found", status: .notFound)
        #expect(me.status == .notFound)
    }

    @Test func malformedAuthnResponsesAreInvalidRequests() async throws {
        let harness = try await TenantHarness()
        let cases = [
            #""authn_response":"text""#,
            #""authn_response":{}"#,
            #""authn_response":{"id":"x","rawId":"!!","type":"public-key","response":{}}"#,
            #""authn_response":{"id":"AA","rawId":"AA","type":"public-key","response":{"clientDataJSON":"AA","attestationObject":"AA"}}"#,
        ]
        let results = try await harness.router { http in
            var results: [HTTPResult] = []
            for authn in cases {
                let challenge = try await harness.signupChallenge(http)
                results.append(
                    try await http.send(
                        .post, "/oauth/token",
                        raw: #"{"client_id":"\#(harness.clientID)","grant_type":"\#(TokenRequest.webAuthnGrant)","#
                            + #""auth_session":"\#(challenge.authSession.text)",\#(authn)}"#))
            }
            results.append(
                try await http.send(
                    .post, "/oauth/token",
                    raw: #"{"client_id":"\#(harness.clientID)","grant_type":"\#(TokenRequest.webAuthnGrant)"}"#))
            return results
        }
        for result in results {
            #expect((400..<500).contains(result.status.code), "\(result.text)")
            #expect(["invalid_request", "invalid_grant"].contains(result.errorCode ?? ""), "\(result.text)")
        }
    }
}
