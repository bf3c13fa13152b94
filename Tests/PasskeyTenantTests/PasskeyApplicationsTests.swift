import HTTPTypes
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The native passkey endpoints (`/passkey/register`, `/passkey/challenge`, the webauthn grant)
/// serve every application that has the webauthn grant, not only the default one: a public client
/// names itself, a confidential one authenticates with its secret as at `/oauth/token`.
@Suite struct PasskeyApplicationsTests {
    /// A second native app, a single-page app and a regular web app with the webauthn grant; a
    /// native app without it; a machine-to-machine app.
    static var configuration: TenantConfiguration {
        var configuration = TenantConfiguration()
        var native = TenantApplication(name: "second-native", appType: .native)
        native.grantTypes.append(TokenRequest.webAuthnGrant)
        var spa = TenantApplication(name: "spa", appType: .spa)
        spa.grantTypes.append(TokenRequest.webAuthnGrant)
        var web = TenantApplication(name: "web", appType: .regularWeb)
        web.grantTypes.append(TokenRequest.webAuthnGrant)
        configuration.applications = [
            native, spa, web, TenantApplication(name: "no-passkey-grant", appType: .native),
            TenantApplication(name: "machine", appType: .nonInteractive),
        ]
        return configuration
    }

    @Test(arguments: [0, 1, 2])
    func anApplicationWithTheGrantSignsUpAndLogsIn(index: Int) async throws {
        let base = try await TenantHarness(configuration: Self.configuration)
        let application = base.tenant.applications[index]
        let harness = base.acting(as: application)
        try await harness.router { http in
            let signup = try await harness.signUp(http)
            let login = try await harness.logIn(http)
            for tokens in [signup, login] {
                let id = try jwtClaims(tokens.idToken)
                #expect(id["aud"] == .string(application.clientID))
                #expect(id["azp"] == .string(application.clientID))
            }
        }
    }

    @Test func aSessionIsRedeemedOnlyByItsClient() async throws {
        let base = try await TenantHarness(configuration: Self.configuration)
        let second = base.acting(as: base.tenant.applications[0])
        try await base.router { http in
            let (session, response) = try await second.signupResponse(http)
            let result = try await base.grant(http, session: session, response: response)
            #expect(result.status.code == 400 || result.status.code == 403, "\(result.text)")
            #expect(result.json["error"] == .string("invalid_grant"))
        }
    }

    @Test func anUnknownClientIsRefusedAsBefore() async throws {
        let base = try await TenantHarness(configuration: Self.configuration)
        try await base.router { http in
            for path in ["/passkey/register", "/passkey/challenge"] {
                let result = try await http.send(
                    .post, path, raw: #"{"client_id":"nobody","user_profile":{"email":"ada@example.com"}}"#)
                #expect(result.status == .unauthorized, "\(path): \(result.text)")
                #expect(result.json["error"] == .string("invalid_client"))
            }
        }
    }

    @Test(arguments: [3, 4])
    func anApplicationWithoutTheGrantIsRefused(index: Int) async throws {
        let base = try await TenantHarness(configuration: Self.configuration)
        let harness = base.acting(as: base.tenant.applications[index])
        try await harness.router { http in
            let signup = await #expect(throws: HarnessError.self) { try await harness.signupChallenge(http) }
            let login = await #expect(throws: HarnessError.self) { try await harness.loginChallenge(http) }
            for error in [signup, login] {
                #expect(error?.result.status == .badRequest, "\(error?.description ?? "")")
                #expect(error?.result.json["error"] == .string("unauthorized_client"))
            }
        }
    }

    @Test func aConfidentialClientMustPresentItsSecret() async throws {
        let base = try await TenantHarness(configuration: Self.configuration)
        let web = base.tenant.applications[2]
        try await base.router { http in
            let bodies = [
                #"{"client_id":"\#(web.clientID)","user_profile":{"email":"ada@example.com"}}"#,
                #"{"client_id":"\#(web.clientID)","client_secret":"wrong","user_profile":{"email":"ada@example.com"}}"#,
            ]
            for body in bodies {
                let result = try await http.send(.post, "/passkey/register", raw: body)
                #expect(result.status == .unauthorized, "\(result.text)")
                #expect(result.json["error"] == .string("invalid_client"))
            }
            // Its registered method only (client_secret_post), as at /oauth/token.
            let secret = try #require(web.clientSecret).text
            let basic = try await http.send(
                .post, "/passkey/challenge", raw: #"{"client_id":"\#(web.clientID)"}"#,
                headers: [.authorization: ClientApplications.basic(web.clientID, secret)])
            #expect(basic.status == .unauthorized, "\(basic.text)")
            #expect(basic.headers[.wwwAuthenticate] == #"Basic realm="localhost""#)
            let post = try await http.send(
                .post, "/passkey/challenge", raw: #"{"client_id":"\#(web.clientID)","client_secret":"\#(secret)"}"#)
            #expect(post.status == .ok, "\(post.text)")
        }
    }
}
