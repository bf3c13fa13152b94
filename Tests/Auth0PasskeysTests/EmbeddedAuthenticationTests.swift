import Auth0Passkeys
import FoundationEssentials
import InMemoryLogging
import Logging
import Testing
import WebAuthn

/// The embedded SDK's client of a provider's authenticate URL (issue 40, step 4): which URLs it
/// takes, the bytes it sends, how the provider's answers map to ``AuthenticationError``, and that
/// the `request` secret reaches no description and no trace.
@Suite struct EmbeddedAuthenticationTests {
    static let secret = "Zr0rJ2m8Q9v1c5s3k7-aB4dE6fG8hJ0kL2nP4qR6sT8"
    static let url = "https://localhost:8443/embedded/authenticate?request=\(secret)"
    static let continueURL = "https://localhost:8443/embedded/continue?request=one-time-Xy7Wq2"

    @Test(arguments: [
        EmbeddedAuthenticationTests.url,
        "http://127.0.0.1:4000/embedded/authenticate?request=abc",
        "HTTPS://b.example.com/tenant/embedded/authenticate?x=1&request=abc#fragment",
    ])
    func anAuthenticateURLIsRecognised(_ url: String) {
        #expect(EmbeddedAuthentication.isAuthenticateURL(url))
    }

    @Test(arguments: [
        "/embedded/authenticate?request=abc",  // not absolute
        "ftp://b.example.com/embedded/authenticate?request=abc",  // not http(s)
        "https:///embedded/authenticate?request=abc",  // no host
        "https://b.example.com/embedded/authenticate",  // no request
        "https://b.example.com/embedded/authenticate?request=",  // an empty one
        "https://b.example.com/embedded/authenticate?request=a&request=b",  // two
        "https://b.example.com/embedded/authenticate/x?request=abc",  // another path
        "https://b.example.com/embedded/continue?request=abc",
        "https://b.example.com/embedded/authenticate#request=abc",  // in the fragment
    ])
    func anythingElseIsNot(_ url: String) {
        #expect(!EmbeddedAuthentication.isAuthenticateURL(url))
    }

    @Test func anInvocationCarriesItsAuthenticateURL() {
        let invoke = "http://127.0.0.1/invoke"
        let encoded = PercentEncoding.encode(Self.url)
        #expect(
            EmbeddedAuthentication.authenticateURL(invoking: "\(invoke)?url=\(encoded)", invokeURL: invoke) == Self.url)
        #expect(
            EmbeddedAuthentication.authenticateURL(
                invoking: "https://app.example.com/invoke?x=1&url=\(encoded)",
                invokeURL: "https://app.example.com/invoke?x=1")
                == Self.url)
        // Another URL, or a `url` that is not an authenticate URL, is no invocation.
        #expect(
            EmbeddedAuthentication.authenticateURL(invoking: "http://127.0.0.1/other?url=\(encoded)", invokeURL: invoke)
                == nil)
        #expect(
            EmbeddedAuthentication.authenticateURL(
                invoking: "\(invoke)?url=\(PercentEncoding.encode("https://evil.example.com/"))", invokeURL: invoke)
                == nil)
        #expect(EmbeddedAuthentication.authenticateURL(invoking: invoke, invokeURL: invoke) == nil)
    }

    @Test func optionsAreAGetOfTheURLItself() async throws {
        let answer = ScriptedTransport(
            json: #"{"publicKey":{"challenge":"nTXfsQXD8KSV6zvN0MxIhtTrBJtZuVHXonxDMbQYPrc","rpId":"localhost","#
                + #""userVerification":"preferred","timeout":60000}}"#)
        let options = try await EmbeddedAuthentication(transport: answer).options(url: Self.url)
        #expect(options.rpId == "localhost")
        #expect(options.allowCredentials == nil)
        let request = try #require(answer.requests.first)
        #expect(request.method == .get && request.url == Self.url && request.body == nil)
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("Auth0-Client") == nil, "the provider is not Auth0")
    }

    @Test func completeAndCancelPostTheContractsBodies() async throws {
        let answer = ScriptedTransport(json: #"{"redirectUrl":"\#(Self.continueURL)"}"#)
        let embedded = EmbeddedAuthentication(transport: answer)
        let next = try await embedded.complete(url: Self.url, credential: try Self.assertion())
        #expect(next == Self.continueURL)
        let body = try JSONDecoder().decode([String: JSONValue].self, from: Data(answer.requests[0].body ?? []))
        #expect(answer.requests[0].method == .post && answer.requests[0].url == Self.url)
        #expect(answer.requests[0].header("Content-Type") == "application/json")
        #expect(body.keys.sorted() == ["credential"])
        #expect(body["credential"]?.objectValue?["id"] == .string("AQID"))
        #expect(body["credential"]?.objectValue?["response"]?.objectValue?["signature"] == .string("MEUCIQ"))
        _ = try await embedded.cancel(url: Self.url)
        #expect(answer.body(1) == #"{"error":"access_denied"}"#)
    }

    /// The provider's refusals keep their codes and status; no answer is status 0 with the
    /// transport's error; an answer without `redirectUrl` is a decoding failure.
    @Test(arguments: [
        (
            400, #"{"error":"invalid_request","error_description":"The request is unknown, expired or spent."}"#,
            AuthenticationError.Code.invalidRequest
        ),
        (400, #"{"error":"invalid_grant","error_description":"The assertion failed verification."}"#, .invalidGrant),
        (200, #"{"redirect":"x"}"#, .plain),
        (400, "not json", .plain),
    ])
    func theProvidersAnswersMapToAuthenticationErrors(_ status: Int, _ body: String, _ code: AuthenticationError.Code)
        async throws
    {
        let answer = ScriptedTransport(status: status, json: body)
        let error = await #expect(throws: AuthenticationError.self) {
            try await EmbeddedAuthentication(transport: answer).complete(
                url: Self.url, credential: try Self.assertion())
        }
        #expect(error?.code == code)
        #expect(error?.statusCode == status)
        #expect(error?.description.contains(Self.secret) == false)
    }

    @Test func noAnswerIsANetworkError() async throws {
        let down = ScriptedTransport { _, _ in .failure(TransportError(.cannotConnect, "connection refused")) }
        let error = await #expect(throws: AuthenticationError.self) {
            try await EmbeddedAuthentication(transport: down).cancel(url: Self.url)
        }
        #expect(error?.statusCode == 0 && error?.isNetworkError == true)
    }

    /// What is not an authenticate URL, and plain http beyond loopback, are refused before any
    /// request, without repeating the URL.
    @Test(arguments: [
        "https://b.example.com/embedded/continue?request=\(EmbeddedAuthenticationTests.secret)",
        "http://b.example.com/embedded/authenticate?request=\(EmbeddedAuthenticationTests.secret)",
    ])
    func aURLItRefusesSendsNothing(_ url: String) async throws {
        let answer = ScriptedTransport(json: "{}")
        let error = await #expect(throws: AuthenticationError.self) {
            try await EmbeddedAuthentication(transport: answer).options(url: url)
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains(Self.secret) == false)
        #expect(answer.requests.isEmpty)
    }

    /// At `trace`, neither the authenticate URL's `request` nor the `redirectUrl`'s appears in
    /// the log, nor a `Location`'s query.
    @Test func theTraceRedactsTheSecrets() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "embedded-test", factory: { _ in logs })
        logger.logLevel = .trace
        let answer = ScriptedTransport(
            json: #"{"redirectUrl":"\#(Self.continueURL)"}"#,
            headers: [(name: "Location", value: "http://127.0.0.1/invoke?url=\(PercentEncoding.encode(Self.url))")])
        let embedded = EmbeddedAuthentication(transport: answer, logger: logger)
        _ = try await embedded.complete(url: Self.url, credential: try Self.assertion())
        let text = logs.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(text.contains("/embedded/authenticate"))
        #expect(!text.contains(Self.secret) && !text.contains("one-time-Xy7Wq2"), "\(text)")
        #expect(text.contains(#""redirectUrl":"<redacted>""#), "\(text)")
    }

    static func assertion() throws -> AuthenticationResponseJSON {
        let json =
            #"{"id":"AQID","rawId":"AQID","type":"public-key","authenticatorAttachment":"platform","#
            + #""response":{"clientDataJSON":"e30","authenticatorData":"AAAA","signature":"MEUCIQ","#
            + #""userHandle":"dXNlcg"},"clientExtensionResults":{}}"#
        return try JSONDecoder().decode(AuthenticationResponseJSON.self, from: Data(json.utf8))
    }
}
