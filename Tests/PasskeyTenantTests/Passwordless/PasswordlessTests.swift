import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WebAuthn

@testable import PasskeyTenant

/// Passwordless on the local tenant (issue 41): `POST /passwordless/start` sends a code or a magic
/// link to the outbox, `GET /test/outbox` shows it, the passwordless OTP grant and
/// `/passwordless/verify_redirect` redeem it; and every refusal: a used code, an expired one, a
/// code void after three wrong tries, an unknown connection, a code for another address, a client
/// without the grant.
@Suite struct PasswordlessTests {
    static let otpGrant = "http://auth0.com/oauth/grant-type/passwordless/otp"

    func harness(_ change: (inout TenantConfiguration) -> Void = { _ in }) async throws -> TenantHarness {
        var configuration = TenantConfiguration()
        configuration.outbox.servesTestRoute = true
        change(&configuration)
        return try await TenantHarness(configuration: configuration)
    }

    func start(
        _ http: any TestClientProtocol, _ harness: TenantHarness, _ members: [String: JSONValue]
    ) async throws -> HTTPResult {
        var body: [String: JSONValue] = ["client_id": .string(harness.clientID), "send": "code"]
        body.merge(members) { _, new in new }
        return try await http.send(.post, "/passwordless/start", json: body)
    }

    func outbox(_ http: any TestClientProtocol, to address: String) async throws -> [[String: JSONValue]] {
        let result = try await http.send(.get, "/test/outbox?to=" + WebAuthFlow.encode(address), raw: nil)
        #expect(result.status == .ok, "\(result.text)")
        return try result.decode([[String: JSONValue]].self)
    }

    func latestCode(_ http: any TestClientProtocol, to address: String) async throws -> String {
        try #require(try await outbox(http, to: address).last?["code"]?.stringValue)
    }

    func otp(
        _ http: any TestClientProtocol, _ harness: TenantHarness, username: String, code: String,
        realm: String = "email", scope: String = "openid profile email"
    ) async throws -> HTTPResult {
        try await http.send(
            .post, "/oauth/token",
            json: [
                "grant_type": .string(Self.otpGrant), "client_id": .string(harness.clientID),
                "username": .string(username), "otp": .string(code), "realm": .string(realm), "scope": .string(scope),
            ] as [String: JSONValue])
    }

    @Test func anEmailCodeLogsInAndCreatesTheUserOnce() async throws {
        let harness = try await harness()
        try await harness.router { http in
            let started = try await start(http, harness, ["connection": "email", "email": "Ada@Example.com"])
            #expect(started.status == .ok, "\(started.text)")
            let id = try #require(started.json["_id"]?.stringValue)
            #expect(id.count == 24 && id.allSatisfy(\.isHexDigit))
            #expect(started.json["email"] == "Ada@Example.com" && started.json["email_verified"] == false)

            let messages = try await outbox(http, to: "ada@EXAMPLE.com")
            #expect(messages.count == 1)
            #expect(messages[0]["kind"] == "passwordless_code" && messages[0]["channel"] == "email")
            let code = try #require(messages[0]["code"]?.stringValue)
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))
            #expect(messages[0]["text"]?.stringValue?.contains(code) == true)

            let login = try await otp(http, harness, username: "ada@example.com", code: code)
            #expect(login.status == .ok, "\(login.text)")
            let tokens = try login.decode(TokenResponse.self)
            let claims = try jwtClaims(tokens.idToken)
            #expect(claims["sub"] == .string("email|" + id))
            #expect(claims["email"] == "ada@example.com" && claims["email_verified"] == true)
            let user = try #require(try await harness.tenant.services.store.user(id: "email|" + id))
            #expect(user.identity == UserIdentity(provider: "email", connection: "email", userID: id))

            // A second login is the same user, who is now known.
            let again = try await start(http, harness, ["connection": "email", "email": "ada@example.com"])
            #expect(again.json["_id"] == .string(id) && again.json["email_verified"] == true)
            let second = try await otp(
                http, harness, username: "ada@example.com", code: try await latestCode(http, to: "ada@example.com"))
            #expect(try jwtClaims(try second.decode(TokenResponse.self).idToken)["sub"] == .string("email|" + id))
        }
    }

    @Test func anSMSCodeLogsInAnSMSUser() async throws {
        let harness = try await harness()
        try await harness.router { http in
            let started = try await start(http, harness, ["connection": "sms", "phone_number": "+15555550100"])
            #expect(started.status == .ok && started.json["phone_number"] == "+15555550100", "\(started.text)")
            let message = try #require(try await outbox(http, to: "+15555550100").last)
            #expect(message["channel"] == "sms")
            let login = try await otp(
                http, harness, username: "+15555550100", code: try #require(message["code"]?.stringValue),
                realm: "sms", scope: "openid phone")
            let claims = try jwtClaims(try login.decode(TokenResponse.self).idToken)
            #expect(claims["sub"]?.stringValue?.hasPrefix("sms|") == true)
            #expect(claims["phone_number"] == "+15555550100")
        }
    }

    @Test func aCodeIsUsedOnce() async throws {
        let harness = try await harness()
        try await harness.router { http in
            _ = try await start(http, harness, ["connection": "email", "email": "ada@example.com"])
            let code = try await latestCode(http, to: "ada@example.com")
            #expect(try await otp(http, harness, username: "ada@example.com", code: code).status == .ok)
            let replay = try await otp(http, harness, username: "ada@example.com", code: code)
            expectRefused(
                replay, "invalid_grant", status: .forbidden, description: "Wrong email or verification code.")
        }
    }

    @Test func aCodeExpires() async throws {
        let harness = try await harness { $0.outbox.otpLifetime = .seconds(60) }
        try await harness.router { http in
            _ = try await start(http, harness, ["connection": "email", "email": "ada@example.com"])
            let code = try await latestCode(http, to: "ada@example.com")
            harness.clock.advance(by: 61)
            let late = try await otp(http, harness, username: "ada@example.com", code: code)
            expectRefused(late, "invalid_grant", status: .forbidden, description: "Wrong email or verification code.")
        }
    }

    @Test func threeWrongTriesVoidTheCode() async throws {
        let harness = try await harness()
        try await harness.router { http in
            _ = try await start(http, harness, ["connection": "sms", "phone_number": "+15555550100"])
            let code = try await latestCode(http, to: "+15555550100")
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<3 {
                let refused = try await otp(http, harness, username: "+15555550100", code: wrong, realm: "sms")
                expectRefused(refused, "invalid_grant", description: "Wrong phone number or verification code.")
            }
            let locked = try await otp(http, harness, username: "+15555550100", code: code, realm: "sms")
            expectRefused(
                locked, "invalid_grant", status: .forbidden,
                description: "You've reached the maximum number of attempts. Please try to login again.")
            // A new code starts over, and only the newest is good.
            _ = try await start(http, harness, ["connection": "sms", "phone_number": "+15555550100"])
            let fresh = try await latestCode(http, to: "+15555550100")
            if fresh != code {
                expectRefused(
                    try await otp(http, harness, username: "+15555550100", code: code, realm: "sms"), "invalid_grant")
            }
            #expect(try await otp(http, harness, username: "+15555550100", code: fresh, realm: "sms").status == .ok)
        }
    }

    @Test func aCodeIsForItsAddressOnly() async throws {
        let harness = try await harness()
        try await harness.router { http in
            _ = try await start(http, harness, ["connection": "email", "email": "ada@example.com"])
            let code = try await latestCode(http, to: "ada@example.com")
            let other = try await otp(http, harness, username: "bob@example.com", code: code)
            expectRefused(other, "invalid_grant", status: .forbidden, description: "Wrong email or verification code.")
            let otherConnection = try await otp(http, harness, username: "ada@example.com", code: code, realm: "sms")
            expectRefused(otherConnection, "invalid_grant")
            #expect(try await otp(http, harness, username: "ada@example.com", code: code).status == .ok)
        }
    }

    @Test func unknownConnectionsAndBadBodiesAreRefused() async throws {
        let harness = try await harness()
        try await harness.router { http in
            let cases: [([String: JSONValue], String, String)] = [
                (
                    ["connection": "Username-Password-Authentication", "email": "a@b.c"], "bad.connection",
                    "Connection does not exist"
                ),
                (["email": "a@b.c"], "bad.connection", "Missing required property: connection"),
                (["connection": "email"], "bad.email", "Missing required property: email"),
                (["connection": "email", "email": "not an email"], "bad.email", "Invalid email address"),
                (
                    ["connection": "sms", "phone_number": "5555550100"], "bad.phone_number",
                    "String does not match pattern: ^\\+[0-9]{1,15}$"
                ),
                (["connection": "email", "email": "a@b.c", "send": "fax"], "bad.request", "send must be code or link"),
                (
                    [
                        "connection": "sms", "phone_number": "+15555550100", "send": "link",
                        "authParams": ["redirect_uri": "http://127.0.0.1/callback"],
                    ], "bad.request",
                    "A link is sent by email only."
                ),
                (
                    [
                        "connection": "email", "email": "a@b.c", "send": "link",
                        "authParams": ["redirect_uri": "https://evil.example/cb"],
                    ], "bad.authParams", "redirect_uri"
                ),
            ]
            for (members, code, reason) in cases {
                expectRefused(try await start(http, harness, members), code, status: .badRequest, saying: reason)
            }
            for garbage in ["{\"connection\": \"email\", \"email\": ", "\u{FF}\u{FE}not json", "[1, 2]"] {
                let result = try await http.send(.post, "/passwordless/start", raw: garbage)
                #expect(result.status == .badRequest, "\(result.text)")
            }
            let grant = try await otp(http, harness, username: "a@b.c", code: "123456", realm: "github")
            expectRefused(grant, "invalid_request", status: .badRequest, saying: "Connection does not exist")
            #expect(try await outbox(http, to: "a@b.c").isEmpty)
        }
    }

    @Test func onlyAClientWithTheGrantGetsACode() async throws {
        let harness = try await harness {
            $0.applications = [TenantApplication(name: "spa", appType: .spa, callbacks: ["http://127.0.0.1/callback"])]
        }
        let spa = harness.acting(as: try #require(harness.tenant.applications.first))
        try await harness.router { http in
            let refused = try await start(http, spa, ["connection": "email", "email": "ada@example.com"])
            expectRefused(refused, "unauthorized_client", status: .forbidden)
            let unknown = try await http.send(
                .post, "/passwordless/start",
                json: ["client_id": "nope", "connection": "email", "email": "a@b.c"] as [String: JSONValue])
            expectRefused(unknown, "invalid_client", status: .unauthorized)
        }
    }

    @Test func aMagicLinkEndsAtTheRedirectWithACode() async throws {
        let harness = try await harness()
        let flow = WebAuthFlow(harness)
        try await harness.router { http in
            let started = try await start(
                http, harness,
                [
                    "connection": "email", "email": "ada@example.com", "send": "link",
                    "authParams": [
                        "redirect_uri": .string(flow.redirectURI), "state": .string(flow.state),
                        "scope": "openid email", "code_challenge": .string(flow.challenge),
                        "code_challenge_method": "S256",
                    ],
                ])
            #expect(started.status == .ok, "\(started.text)")
            let message = try #require(try await outbox(http, to: "ada@example.com").last)
            #expect(message["kind"] == "passwordless_link")
            let link = try #require(message["link"]?.stringValue)
            let path = String(link[try #require(link.range(of: "/passwordless/verify_redirect?")).lowerBound...])
            // The link's code is the link's: the OTP grant does not take it.
            let code = try #require(message["code"]?.stringValue)
            expectRefused(try await otp(http, harness, username: "ada@example.com", code: code), "invalid_grant")

            let opened = try await http.send(.get, path, raw: nil)
            #expect(opened.status == .found, "\(opened.text)")
            #expect(opened.setCookies.contains { $0.hasPrefix("passkey_session=") })
            let exchanged = try await flow.exchange(http, code: try flow.code(opened))
            #expect(exchanged.status == .ok, "\(exchanged.text)")
            let claims = try jwtClaims(try exchanged.decode(TokenResponse.self).idToken)
            #expect(claims["sub"]?.stringValue?.hasPrefix("email|") == true && claims["email"] == "ada@example.com")

            // Opened again: used, back to the application with Auth0's words.
            let again = try await http.send(.get, path, raw: nil)
            let query = try flow.callbackQuery(try #require(again.location))
            #expect(
                query["error"] == "access_denied" && query["error_description"] == "Wrong email or verification code.")
            // An edited link names no code.
            let edited = try await http.send(.get, path.replacingOccurrences(of: "ada%40", with: "bob%40"), raw: nil)
            #expect(edited.status == .badRequest)
        }
    }

    @Test func theOutboxRouteExistsOnlyBehindItsFlag() async throws {
        let off = try await TenantHarness()
        try await off.router { http in
            let missing = try await http.send(.get, "/test/outbox?to=a@b.c", raw: nil)
            #expect(missing.status == .notFound)
        }
        let on = try await harness()
        try await on.router { http in
            expectRefused(try await http.send(.get, "/test/outbox", raw: nil), "invalid_request", status: .badRequest)
            #expect(try await outbox(http, to: "nobody@example.com").isEmpty)
        }
    }
}
