import Auth0Passkeys
import FoundationEssentials
import InMemoryLogging
import Logging
import Testing
import WebAuthn

/// The requests of a confidential client (RFC 6749 §2.3.1): the code exchange (§4.1.3), the
/// refresh (§6) and the revocation (RFC 7009 §2.1), with its secret in the body or in
/// `Authorization: Basic`, never both, whether it calls ``Authentication`` or a
/// ``CredentialsManager`` does; a public client's requests unchanged.
@Suite struct ConfidentialClientTests {
    private func exchange(_ method: ClientAuthentication, clientID: String = Fixtures.clientID) async throws
        -> HTTPRequest
    {
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let auth = try Authentication(
            clientId: clientID, baseURL: "https://login.example.com", client: answer.client())
        _ = try await auth.codeExchange(
            withCode: "c", codeVerifier: "v", redirectURI: "https://app.example.com/cb", clientAuthentication: method
        ).start()
        return try #require(answer.requests.first)
    }

    private func body(_ request: HTTPRequest) -> String { String(decoding: request.body ?? [], as: UTF8.self) }

    @Test func aPublicClientSendsItsIDAndNoSecret() async throws {
        let request = try await exchange(.none)
        #expect(request.header("Authorization") == nil)
        #expect(
            body(request)
                == #"{"client_id":"\#(Fixtures.clientID)","code":"c","code_verifier":"v","#
                + #""grant_type":"authorization_code","redirect_uri":"https://app.example.com/cb"}"#)
    }

    @Test func clientSecretPostPutsTheSecretInTheBody() async throws {
        let request = try await exchange(.clientSecretPost(ClientSecret("s3cr3t")))
        #expect(request.header("Authorization") == nil)
        #expect(body(request).contains(#""client_secret":"s3cr3t""#))
    }

    /// RFC 6749 §2.3.1's example credentials, then an ID and a secret that form-urlencoding changes.
    @Test func clientSecretBasicSendsTheFormEncodedPairInTheHeaderOnly() async throws {
        let example = try await exchange(
            .clientSecretBasic(ClientSecret("gX1fBat3bV")), clientID: "s6BhdRkqt3")
        #expect(example.header("Authorization") == "Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW")
        #expect(!body(example).contains("client_secret"))
        #expect(body(example).contains(#""client_id":"s6BhdRkqt3""#))

        let encoded = try await exchange(.clientSecretBasic(ClientSecret("p+q:r é")), clientID: "a b")
        let credentials = try #require(encoded.header("Authorization")?.dropFirst("Basic ".count))
        let decoded = try #require(Data(base64Encoded: String(credentials)))
        #expect(String(decoding: decoded, as: UTF8.self) == "a%20b:p%2Bq%3Ar%20%C3%A9")
    }

    /// RFC 6749 §2.3.1's example client again, at the refresh and the revocation.
    @Test func refreshAndRevocationAuthenticateAsTheCodeExchangeDoes() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let auth = try Authentication(
            clientId: "s6BhdRkqt3", baseURL: "https://login.example.com", client: answer.client())
        let basic = ClientAuthentication.clientSecretBasic(ClientSecret("gX1fBat3bV"))
        let post = ClientAuthentication.clientSecretPost(ClientSecret("gX1fBat3bV"))
        _ = try await auth.renew(withRefreshToken: "RT", clientAuthentication: basic).start()
        try await auth.revoke(refreshToken: "RT", clientAuthentication: basic).start()
        _ = try await auth.renew(withRefreshToken: "RT", clientAuthentication: post).start()
        try await auth.revoke(refreshToken: "RT", clientAuthentication: post).start()
        #expect(
            answer.requests.map(\.url).map { $0.split(separator: "/").last } == ["token", "revoke", "token", "revoke"])
        for request in answer.requests.prefix(2) {
            #expect(request.header("Authorization") == "Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW")
            #expect(!body(request).contains("client_secret"))
        }
        #expect(
            answer.body(2)
                == #"{"client_id":"s6BhdRkqt3","client_secret":"gX1fBat3bV","grant_type":"refresh_token","#
                + #""refresh_token":"RT"}"#)
        #expect(answer.body(3) == #"{"client_id":"s6BhdRkqt3","client_secret":"gX1fBat3bV","token":"RT"}"#)
        #expect(answer.requests.suffix(2).allSatisfy { $0.header("Authorization") == nil })
    }

    /// A manager given the application's authentication sends it with each renewal, API exchange
    /// and revocation, and its trace, bodies included, shows neither the secret nor the Basic
    /// credentials.
    @Test(arguments: [
        ClientAuthentication.clientSecretPost(ClientSecret("s3cr3t")), .clientSecretBasic(ClientSecret("s3cr3t")),
    ])
    func aCredentialsManagerAuthenticatesEveryRefreshTokenRequest(_ method: ClientAuthentication) async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "test", factory: { _ in logs })
        logger.logLevel = .trace
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let manager = CredentialsManager(
            authentication: try answer.authentication(logger: logger), storage: InMemoryCredentialsStorage(),
            clientAuthentication: method)
        try await manager.store(
            credentials: Credentials(
                accessToken: "AT", tokenType: "Bearer", idToken: Fixtures.idToken, refreshToken: "RT",
                expiresAt: Date().addingTimeInterval(3600)))
        _ = try await manager.renew()
        _ = try await manager.apiCredentials(forAudience: "https://login.example.com/me/", scope: "read:me")
        try await manager.revoke()
        #expect(answer.requests.count == 3)
        for request in answer.requests {
            let sent = body(request).contains(#""client_secret":"s3cr3t""#) || request.header("Authorization") != nil
            #expect(sent)
        }
        let basic = Data("\(Fixtures.clientID):s3cr3t".utf8).base64EncodedString()
        #expect(!logs.entries.isEmpty, "the trace was on")
        for entry in logs.entries {
            let text = "\(entry.message) \(entry.metadata ?? [:])"
            #expect(!text.contains("s3cr3t") && !text.contains(basic), "\(text)")
        }
    }

    @Test func theSecretNeverPrints() {
        let method = ClientAuthentication.clientSecretBasic(ClientSecret("s3cr3t"))
        #expect(!"\(method)".contains("s3cr3t"))
        #expect(!String(reflecting: method).contains("s3cr3t"))
    }
}
