import Auth0Passkeys
import Foundation
import HTTPTypes
import InMemoryLogging
import Logging
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// Client authentication at `/oauth/token` and `/oauth/revoke` (RFC 6749 §2.3, §5.2; OpenID
/// Connect Core 1.0 §9), over loopback with libcurl: `client_secret_basic`, `client_secret_post`,
/// `none` for public clients, and every refusal `invalid_client` (401), with a Basic challenge
/// when the client tried Basic, and no secret in the answer.
@Suite struct ClientAuthenticationTests {
    /// Expects an `invalid_client` refusal (401) that names no secret of `apps`, with
    /// `WWW-Authenticate: Basic realm="localhost"` exactly when `basic`.
    func expectInvalidClient(
        _ response: Auth0Passkeys.HTTPResponse, basic: Bool, _ apps: ClientApplications,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == 401, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.json["error"] == .string("invalid_client"), sourceLocation: sourceLocation)
        let challenge = response.header("WWW-Authenticate")
        #expect(challenge == (basic ? #"Basic realm="localhost""# : nil), sourceLocation: sourceLocation)
        for secret in [apps.basic, apps.post, apps.machine].compactMap(\.clientSecret?.text) {
            #expect(!response.text.contains(secret), sourceLocation: sourceLocation)
        }
    }

    // MARK: Success

    @Test func aRegularWebAppExchangesRefreshesAndRevokesWithBasic() async throws {
        try await ClientApplications.run { apps in
            let app = apps.basic
            let secret = try #require(app.clientSecret).text
            let basic = ClientApplications.basic(app.clientID, secret)
            let exchanged = try await apps.post(
                "/oauth/token", form: apps.codeForm(try await apps.code(for: app)), authorization: basic)
            #expect(exchanged.status == 200, "\(exchanged.text)")
            let idToken = try jwtClaims(Secret(try #require(exchanged.json["id_token"]?.stringValue)))
            #expect(idToken["aud"] == .string(app.clientID))
            #expect(idToken["azp"] == .string(app.clientID))
            let refreshToken = try #require(exchanged.json["refresh_token"]?.stringValue)
            let refreshed = try await apps.post(
                "/oauth/token", form: [("grant_type", "refresh_token"), ("refresh_token", refreshToken)],
                authorization: basic)
            #expect(refreshed.status == 200, "\(refreshed.text)")
            let rotated = try #require(refreshed.json["refresh_token"]?.stringValue)
            let revoked = try await apps.post(
                "/oauth/revoke", form: [("token", rotated), ("token_type_hint", "refresh_token")], authorization: basic)
            #expect(revoked.status == 200, "RFC 7009 §2.1's form: \(revoked.text)")
            let dead = try await apps.post(
                "/oauth/token", form: [("grant_type", "refresh_token"), ("refresh_token", rotated)],
                authorization: basic)
            #expect(dead.json["error"] == .string("invalid_grant"))
        }
    }

    @Test func aRegularWebAppExchangesRefreshesAndRevokesWithPost() async throws {
        try await ClientApplications.run { apps in
            let app = apps.post
            let credentials = [("client_id", app.clientID), ("client_secret", try #require(app.clientSecret).text)]
            let exchanged = try await apps.post(
                "/oauth/token", form: apps.codeForm(try await apps.code(for: app), credentials))
            #expect(exchanged.status == 200, "\(exchanged.text)")
            let refreshToken = try #require(exchanged.json["refresh_token"]?.stringValue)
            let refreshed = try await apps.post(
                "/oauth/token", form: [("grant_type", "refresh_token"), ("refresh_token", refreshToken)] + credentials)
            #expect(refreshed.status == 200, "\(refreshed.text)")
            let rotated = try #require(refreshed.json["refresh_token"]?.stringValue)
            let revoked = try await apps.http.send(
                .post, "/oauth/revoke",
                json: RevokeRequest(token: Secret(rotated), clientID: app.clientID, clientSecret: app.clientSecret))
            #expect(revoked.status == .ok, "\(revoked.text)")
        }
    }

    @Test func aSinglePageAppIsAPublicClientWithPKCE() async throws {
        try await ClientApplications.run { apps in
            let exchanged = try await apps.post(
                "/oauth/token",
                form: apps.codeForm(try await apps.code(for: apps.spa), [("client_id", apps.spa.clientID)]))
            #expect(exchanged.status == 200, "\(exchanged.text)")
            let idToken = try jwtClaims(Secret(try #require(exchanged.json["id_token"]?.stringValue)))
            #expect(idToken["aud"] == .string(apps.spa.clientID))
        }
    }

    /// PKCE is required of a public client only: a regular web app may leave it out, as on Auth0
    /// (mod_auth_openidc and most server libraries send none by default), and then redeems the code
    /// with its secret alone.
    @Test func aConfidentialClientMayLeavePKCEOut() async throws {
        try await ClientApplications.run { apps in
            func without(_ client: RegisteredApplication) -> [String: String?] {
                ["client_id": client.clientID, "code_challenge": nil, "code_challenge_method": nil]
            }
            for (changes, client) in [(without(apps.spa), "spa"), (["code_challenge": nil], "method alone")] {
                let answer = try await apps.flow.authorize(apps.http, changes)
                let query = try apps.flow.callbackQuery(try #require(answer.location))
                #expect(query["error"] == "invalid_request" && query["code"] == nil, "\(client): \(query)")
            }
            let basic = ClientApplications.basic(apps.basic.clientID, try #require(apps.basic.clientSecret).text)
            func form(_ code: String) -> [(String, String)] {
                [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", apps.flow.redirectURI)]
            }
            let first = try await apps.flow.signUpForCode(apps.http, without(apps.basic)).code
            let withVerifier = try await apps.post(
                "/oauth/token", form: form(first) + [("code_verifier", apps.flow.verifier)], authorization: basic)
            #expect(withVerifier.status == 403, "a verifier without a challenge (OAuth 2.1 §4.1.3)")
            #expect(withVerifier.json["error"] == .string("invalid_grant"))

            let second = try await apps.flow.logInForCode(apps.http, without(apps.basic)).code
            let secretless = try await apps.post(
                "/oauth/token", form: form(second) + [("client_id", apps.basic.clientID)])
            expectInvalidClient(secretless, basic: false, apps)
            let exchanged = try await apps.post("/oauth/token", form: form(second), authorization: basic)
            #expect(exchanged.status == 200, "the secret alone redeems the code: \(exchanged.text)")
        }
    }

    @Test func theMachineClientsTakeBasicAndPost() async throws {
        try await ClientApplications.run { apps in
            let tenant = apps.harness.tenant
            let audience = [
                ("grant_type", "client_credentials"), ("audience", tenant.configuration.managementAudience),
            ]
            let builtIn = try await apps.post(
                "/oauth/token", form: audience,
                authorization: ClientApplications.basic(tenant.managementClientID, tenant.managementClientSecret.text))
            #expect(builtIn.status == 200, "\(builtIn.text)")
            let machine = apps.machine
            let configured = try await apps.post(
                "/oauth/token",
                form: audience + [
                    ("client_id", machine.clientID), ("client_secret", try #require(machine.clientSecret).text),
                ])
            #expect(configured.status == 200, "\(configured.text)")
            let claims = try jwtClaims(Secret(try #require(configured.json["access_token"]?.stringValue)))
            #expect(claims["sub"] == .string(machine.clientID + "@clients"))
        }
    }

    @Test func discoveryListsTheMethodsTheTenantTakes() async throws {
        try await ClientApplications.run { apps in
            let discovery = try await apps.http.send(.get, "/.well-known/openid-configuration")
            #expect(
                discovery.json["token_endpoint_auth_methods_supported"]
                    == .array([.string("none"), .string("client_secret_post"), .string("client_secret_basic")]))
        }
    }

    // MARK: Refusals

    @Test func aWrongSecretOrAnotherClientsSecretIsRefused() async throws {
        try await ClientApplications.run { apps in
            let form = apps.codeForm("no-such-code")
            let otherSecret = try #require(apps.post.clientSecret).text
            let wrong = try await apps.post(
                "/oauth/token", form: form, authorization: ClientApplications.basic(apps.basic.clientID, "wrong"))
            let another = try await apps.post(
                "/oauth/token", form: form, authorization: ClientApplications.basic(apps.basic.clientID, otherSecret))
            let wrongPost = try await apps.post(
                "/oauth/token", form: form + [("client_id", apps.post.clientID), ("client_secret", "wrong")])
            let unknown = try await apps.post(
                "/oauth/token", form: form, authorization: ClientApplications.basic("nobody", otherSecret))
            expectInvalidClient(wrong, basic: true, apps)
            expectInvalidClient(another, basic: true, apps)
            expectInvalidClient(wrongPost, basic: false, apps)
            expectInvalidClient(unknown, basic: true, apps)
        }
    }

    @Test(arguments: [
        "Basic !!!not-base64!!!", "Basic " + "a", ClientApplications.basic(raw: "no-colon-here"),
        ClientApplications.basic(raw: "id%zz:secret"), ClientApplications.basic(raw: "id:secret%"),
        ClientApplications.basic(raw: "id%E9:secret"), ClientApplications.basic(raw: ":secret"),
        "Basic " + Data([0xFF, 0x3A, 0x61]).base64EncodedString(),
        // Empty credentials are a failed Basic authentication, not none (RFC 6749 §5.2).
        "Basic", "Basic   ", "basic",
    ])
    func basicHeaderGarbageIsRefused(header: String) async throws {
        try await ClientApplications.run { apps in
            let token = try await apps.post("/oauth/token", form: apps.codeForm("no-such-code"), authorization: header)
            let revoke = try await apps.post("/oauth/revoke", form: [("token", "t")], authorization: header)
            expectInvalidClient(token, basic: true, apps)
            expectInvalidClient(revoke, basic: true, apps)
        }
    }

    @Test func aPublicClientPresentingASecretIsRefused() async throws {
        try await ClientApplications.run { apps in
            let code = try await apps.code(for: apps.spa)
            let secret = try #require(apps.post.clientSecret).text
            let inBody = try await apps.post(
                "/oauth/token",
                form: apps.codeForm(code, [("client_id", apps.spa.clientID), ("client_secret", secret)]))
            let inHeader = try await apps.post(
                "/oauth/token", form: apps.codeForm(code),
                authorization: ClientApplications.basic(apps.spa.clientID, secret))
            let native = try await apps.post(
                "/oauth/token",
                form: [
                    ("grant_type", "refresh_token"), ("refresh_token", "r"), ("client_id", apps.harness.clientID),
                    ("client_secret", "made-up"),
                ])
            expectInvalidClient(inBody, basic: false, apps)
            expectInvalidClient(inHeader, basic: true, apps)
            expectInvalidClient(native, basic: false, apps)
            let stillGood = try await apps.post(
                "/oauth/token", form: apps.codeForm(code, [("client_id", apps.spa.clientID)]))
            #expect(stillGood.status == 200, "a refused client does not spend the code: \(stillGood.text)")
        }
    }

    @Test func aPublicClientNeverGetsAConfidentialClientsGrant() async throws {
        try await ClientApplications.run { apps in
            let tenant = apps.harness.tenant
            let form = [("grant_type", "client_credentials"), ("audience", tenant.configuration.managementAudience)]
            let spa = try await apps.post("/oauth/token", form: form + [("client_id", apps.spa.clientID)])
            let native = try await apps.post("/oauth/token", form: form + [("client_id", apps.harness.clientID)])
            for refused in [spa, native] {
                #expect(refused.status == 403, "\(refused.text)")
                #expect(refused.json["error"] == .string("unauthorized_client"))
            }
        }
    }

    @Test func credentialsInTheHeaderAndTheBodyAreRefused() async throws {
        try await ClientApplications.run { apps in
            let secret = try #require(apps.basic.clientSecret).text
            let basic = ClientApplications.basic(apps.basic.clientID, secret)
            let both = try await apps.post(
                "/oauth/token", form: apps.codeForm("no-such-code", [("client_secret", secret)]), authorization: basic)
            let otherID = try await apps.post(
                "/oauth/token", form: apps.codeForm("no-such-code", [("client_id", apps.post.clientID)]),
                authorization: basic)
            let revoke = try await apps.http.send(
                .post, "/oauth/revoke", raw: #"{"token":"t","client_secret":"\#(secret)"}"#,
                headers: [.authorization: basic])
            expectInvalidClient(both, basic: true, apps)
            expectInvalidClient(otherID, basic: true, apps)
            #expect(revoke.status == .unauthorized)
            #expect(revoke.headers[.wwwAuthenticate] == #"Basic realm="localhost""#)
            #expect(!revoke.text.contains(secret))
        }
    }

    @Test func anotherMethodThanTheRegisteredOneIsRefused() async throws {
        try await ClientApplications.run { apps in
            let basicSecret = try #require(apps.basic.clientSecret).text
            let postSecret = try #require(apps.post.clientSecret).text
            let form = apps.codeForm("no-such-code")
            let postForBasic = try await apps.post(
                "/oauth/token", form: form + [("client_id", apps.basic.clientID), ("client_secret", basicSecret)])
            let basicForPost = try await apps.post(
                "/oauth/token", form: form, authorization: ClientApplications.basic(apps.post.clientID, postSecret))
            let noneForPost = try await apps.post("/oauth/token", form: form + [("client_id", apps.post.clientID)])
            let revokeWithoutSecret = try await apps.http.send(
                .post, "/oauth/revoke", json: RevokeRequest(token: Secret("t"), clientID: apps.basic.clientID))
            expectInvalidClient(postForBasic, basic: false, apps)
            expectInvalidClient(basicForPost, basic: true, apps)
            expectInvalidClient(noneForPost, basic: false, apps)
            #expect(revokeWithoutSecret.status == .unauthorized)
        }
    }

    @Test func aCodeIsRedeemedOnlyByTheClientItWasIssuedTo() async throws {
        try await ClientApplications.run { apps in
            let code = try await apps.code(for: apps.basic)
            let secret = try #require(apps.post.clientSecret).text
            let other = try await apps.post(
                "/oauth/token",
                form: apps.codeForm(code, [("client_id", apps.post.clientID), ("client_secret", secret)]))
            #expect(other.status == 403, "\(other.text)")
            #expect(other.json["error"] == .string("invalid_grant"))
        }
    }

    @Test func aTracedClientAuthenticationLogsNoSecret() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "tenant-test", factory: { _ in logs })
        logger.logLevel = .trace
        let secrets = try await ClientApplications.run(logger: logger) { apps in
            let secret = try #require(apps.basic.clientSecret).text
            let code = try await apps.code(for: apps.basic)
            _ = try await apps.post(
                "/oauth/token", form: apps.codeForm(code), authorization: ClientApplications.basic("x", secret))
            _ = try await apps.post(
                "/oauth/token", form: apps.codeForm(code, [("client_secret", secret)]),
                authorization: ClientApplications.basic(apps.basic.clientID, secret))
            let tokens = try await apps.post(
                "/oauth/token", form: apps.codeForm(code),
                authorization: ClientApplications.basic(apps.basic.clientID, secret))
            return [secret, code, try #require(tokens.json["refresh_token"]?.stringValue)]
        }
        let text = logs.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(text.contains("/oauth/token 401"))
        for secret in secrets {
            #expect(!text.contains(secret))
        }
    }

    @Test func aBasicIDAndSecretAreFormDecoded() async throws {
        var configuration = ClientApplications.configuration
        configuration.applications[0].clientID = "web app/1"
        configuration.applications[0].clientSecret = Secret("s3cr+t:with%special é")
        #expect(ClientApplications.basic("web app/1", "s3cr+t:with%special é").hasPrefix("Basic "))
        let tenant = try await TestTenant.open(configuration: configuration)
        try await TestTenant.serve(tenant) { _, baseURL in
            let response = try await CurlTransport().send(
                Auth0Passkeys.HTTPRequest(
                    method: .post, url: baseURL + "/oauth/token",
                    headers: [
                        (name: "Content-Type", value: "application/x-www-form-urlencoded"),
                        (
                            name: "Authorization",
                            value: ClientApplications.basic(raw: "web+app%2F1:s3cr%2Bt%3Awith%25special+%C3%A9")
                        ),
                    ],
                    body: Array("grant_type=refresh_token&refresh_token=unknown".utf8)))
            // Authenticated, then the grant is refused: 403 for an unknown refresh token, as Auth0 answers.
            #expect(response.status == 403, "authenticated, then the grant is refused: \(response.text)")
            #expect(response.json["error"] == .string("invalid_grant"))
        }
    }
}
