import Auth0Passkeys
import FoundationEssentials
import HTTPTypes
import Hummingbird
import Testing
import WebAuthn

/// `CurlTransport` and the retry rules against a real loopback server.
@Suite struct TransportTests {
    let fast = RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(10), maxDelay: .seconds(5))

    func authentication(_ baseURL: String, policy: RetryPolicy? = nil, timeout: Duration = .seconds(10)) throws
        -> Authentication
    {
        try Authentication(
            clientId: "client", baseURL: baseURL,
            transport: CurlTransport(configuration: .init(timeout: timeout, connectTimeout: .seconds(2))),
            retryPolicy: policy ?? fast)
    }

    @Test func a429WithRetryAfterIsHonoured() async throws {
        let server = CannedServer()
        server.route(.post, "/passkey/challenge") { index, _ in
            index == 0
                ? CannedServer.json(.tooManyRequests, #"{"error":"too_many_requests"}"#, headers: [.retryAfter: "1"])
                : CannedServer.json(.ok, Fixtures.loginChallenge)
        }
        try await server.run { url in
            let clock = ContinuousClock()
            let start = clock.now
            let challenge = try await authentication(url).passkeyLoginChallenge().start()
            #expect(clock.now - start >= .seconds(1))
            #expect(challenge.relyingPartyId == "login.example.com")
        }
        #expect(server.hits["/passkey/challenge"] == 2)
    }

    @Test func aRetryAfterLongerThanTheLimitIsNotWaitedFor() async throws {
        let server = CannedServer()
        server.route(.post, "/passkey/challenge") { _, _ in
            CannedServer.json(.tooManyRequests, #"{"error":"too_many_requests"}"#, headers: [.retryAfter: "3600"])
        }
        try await server.run { url in
            let error = await #expect(throws: AuthenticationError.self) {
                try await authentication(url).passkeyLoginChallenge().start()
            }
            #expect(error?.statusCode == 429 && error?.isRetryable == true)
        }
        #expect(server.hits["/passkey/challenge"] == 1)
    }

    @Test func a5xxThenSuccess() async throws {
        let server = CannedServer()
        server.route(.post, "/oauth/token") { index, _ in
            index < 2
                ? CannedServer.json(.serviceUnavailable, "<html>busy</html>")
                : CannedServer.json(.ok, Fixtures.tokens())
        }
        try await server.run { url in
            let credentials = try await authentication(url).renew(withRefreshToken: "RT").start()
            #expect(credentials.accessToken == "AT-1")
        }
        #expect(server.hits["/oauth/token"] == 3)
    }

    @Test func retriesStopAtTheLimit() async throws {
        let server = CannedServer()
        server.route(.get, "/userinfo") { _, _ in CannedServer.json(.internalServerError, #"{"error":"server_error"}"#)
        }
        try await server.run { url in
            let error = await #expect(throws: AuthenticationError.self) {
                try await authentication(url).userInfo(withAccessToken: "AT").start()
            }
            #expect(error?.statusCode == 500 && error?.code.rawValue == "server_error")
        }
        #expect(server.hits["/userinfo"] == 3)
    }

    @Test func theWebAuthnGrantIsNeverRetried() async throws {
        let server = CannedServer()
        server.route(.post, "/oauth/token") { _, _ in CannedServer.json(.serviceUnavailable, "{}") }
        try await server.run { url in
            let challenge = try JSONDecoder().decode(
                PasskeyLoginChallenge.self, from: Data(Fixtures.loginChallenge.utf8))
            await #expect(throws: AuthenticationError.self) {
                try await authentication(url).login(passkey: Fixtures.Passkey(), challenge: challenge)
                    .start()
            }
        }
        #expect(server.hits["/oauth/token"] == 1)
    }

    @Test func clientErrorsAreNotRetried() async throws {
        let server = CannedServer()
        server.route(.post, "/oauth/token") { _, _ in CannedServer.json(.badRequest, #"{"error":"invalid_grant"}"#) }
        _ = try await server.run { url in
            await #expect(throws: AuthenticationError.self) {
                try await authentication(url).renew(withRefreshToken: "RT").start()
            }
        }
        #expect(server.hits["/oauth/token"] == 1)
    }

    /// The server answers only once the client has given up, so the call can only have ended by its
    /// own timeout: no clock is read, and a busy machine cannot make it fail. The time limit only
    /// guards against a hang: a run of the whole suite beside four builds took this test 128 s.
    @Test(.timeLimit(.minutes(10))) func aSlowServerTimesOut() async throws {
        let server = CannedServer()
        let (answer, release) = AsyncStream<Void>.makeStream()
        server.route(.get, "/.well-known/jwks.json") { _, _ in
            for await _ in answer {}
            return CannedServer.json(.ok, #"{"keys":[]}"#)
        }
        try await server.run { url in
            let error = await #expect(throws: AuthenticationError.self) {
                try await authentication(url, policy: RetryPolicy.none, timeout: .milliseconds(300)).jwks().start()
            }
            release.finish()
            #expect((error?.cause as? TransportError)?.code == .timedOut)
            #expect(error?.isNetworkError == true)
        }
    }

    @Test func aTruncatedBodyIsAConnectionLost() async throws {
        let server = CannedServer()
        server.route(.get, "/.well-known/jwks.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json", .contentLength: "100"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: #"{"keys":["#))
                    throw HTTPError(.internalServerError)
                })
        }
        try await server.run { url in
            let error = await #expect(throws: AuthenticationError.self) {
                try await authentication(url, policy: RetryPolicy.none).jwks().start()
            }
            #expect(error?.isNetworkError == true)
        }
    }

    @Test func connectionRefusedIsANetworkError() async throws {
        let auth = try authentication("http://127.0.0.1:1", policy: RetryPolicy.none)
        let error = await #expect(throws: AuthenticationError.self) { try await auth.passkeyLoginChallenge().start() }
        #expect((error?.cause as? TransportError)?.code == .cannotConnect)
        #expect(error?.isNetworkError == true && error?.statusCode == 0)
    }

    @Test func connectionsAreReused() async throws {
        let server = CannedServer()
        server.route(.get, "/echo") { _, _ in CannedServer.json(.ok, "{}") }
        let transport = CurlTransport()
        try await server.run { url in
            var connections: [Int] = []
            for _ in 0..<3 {
                let response = try await transport.send(Auth0Passkeys.HTTPRequest(method: .get, url: url + "/echo"))
                connections.append(response.newConnections)
            }
            #expect(connections == [1, 0, 0])
        }
    }

    @Test func redirectsAreNotFollowed() async throws {
        let server = CannedServer()
        server.route(.get, "/userinfo") { _, _ in
            Response(status: .found, headers: [.location: "/elsewhere"])
        }
        server.route(.get, "/elsewhere") { _, _ in CannedServer.json(.ok, #"{"sub":"x"}"#) }
        try await server.run { url in
            let error = await #expect(throws: AuthenticationError.self) {
                try await authentication(url).userInfo(withAccessToken: "AT").start()
            }
            #expect(error?.statusCode == 302)
        }
        #expect(server.hits["/elsewhere"] == 0)
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/", "gopher://127.0.0.1/"])
    func onlyHTTPAndHTTPS(url: String) async {
        let error = await #expect(throws: TransportError.self) {
            try await CurlTransport().send(Auth0Passkeys.HTTPRequest(method: .get, url: url))
        }
        #expect(error?.code == .unsupportedProtocol)
    }

    @Test func anOversizedBodyIsRefused() async throws {
        let server = CannedServer()
        server.route(.get, "/big") { _, _ in CannedServer.json(.ok, String(repeating: " ", count: 10_000)) }
        try await server.run { url in
            let transport = CurlTransport(configuration: .init(maxResponseSize: 1000))
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(Auth0Passkeys.HTTPRequest(method: .get, url: url + "/big"))
            }
            #expect(error?.code == .responseTooLarge)
        }
    }

    @Test func cancellingTheTaskAbortsTheTransfer() async throws {
        let server = CannedServer()
        server.route(.get, "/slow") { _, _ in
            try await Task.sleep(for: .seconds(5))
            return CannedServer.json(.ok, "{}")
        }
        // Not timed (machines are noisy): a transfer that was not aborted would end with the
        // server's 200 after 5 s, and `result` would then not be `cancelled`.
        try await server.run { url in
            let task = Task {
                try await CurlTransport().send(Auth0Passkeys.HTTPRequest(method: .get, url: url + "/slow"))
            }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            let result = await task.result
            #expect(throws: TransportError(.cancelled, "")) { try result.get() }
        }
    }

    @Test func methodsHeadersAndBodiesReachTheServer() async throws {
        let server = CannedServer()
        for method in [HTTPTypes.HTTPRequest.Method.get, .patch, .delete] {
            server.route(method, "/echo") { _, request in
                let body = try await request.body.collect(upTo: 1 << 16)
                let text =
                    "\(request.method) \(request.headers[.contentType] ?? "-") \(request.headers[.userAgent] ?? "-") "
                    + "\(request.headers[.expect] ?? "no-expect") \(String(buffer: body))"
                return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
            }
        }
        try await server.run { url in
            let transport = CurlTransport()
            let headers = [(name: "Content-Type", value: "application/json")]
            let big = "{\"pad\":\"\(String(repeating: "x", count: 4000))\"}"
            for (method, body, expected) in [
                (Auth0Passkeys.HTTPRequest.Method.get, nil, "GET application/json"),
                (.patch, #"{"name":"a"}"#, "PATCH application/json"),
                (.delete, nil, "DELETE application/json"), (.patch, big, "PATCH application/json"),
            ] {
                let response = try await transport.send(
                    Auth0Passkeys.HTTPRequest(
                        method: method, url: url + "/echo", headers: headers, body: body.map { Array($0.utf8) }))
                let text = String(decoding: response.body, as: UTF8.self)
                #expect(text.hasPrefix(expected + " Auth0Passkeys/"))
                #expect(text.contains(" no-expect "))
                #expect(text.hasSuffix(" " + (body ?? "")))
            }
        }
    }
}
