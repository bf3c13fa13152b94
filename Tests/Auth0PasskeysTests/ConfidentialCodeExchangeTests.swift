import Auth0Passkeys
import FoundationEssentials
import Testing
import WebAuthn

/// The code exchange of a confidential client (RFC 6749 §2.3.1, §4.1.3): its secret in the body or
/// in `Authorization: Basic`, never both, and a public client's exchange unchanged.
@Suite struct ConfidentialCodeExchangeTests {
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

    @Test func theSecretNeverPrints() {
        let method = ClientAuthentication.clientSecretBasic(ClientSecret("s3cr3t"))
        #expect(!"\(method)".contains("s3cr3t"))
        #expect(!String(reflecting: method).contains("s3cr3t"))
    }
}
