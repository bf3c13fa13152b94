import Auth0Passkeys
import FoundationEssentials
import Testing
import WebAuthn

/// The bytes of every request, against the spec's key names and encodings: keys exactly as
/// listed, optionals absent (never `null`), unpadded base64url, the headers of §8.
@Suite struct RequestShapeTests {
    let signupAnswer = ScriptedTransport(json: Fixtures.signupChallenge)

    @Test func signupChallengeWithEmailOnly() async throws {
        let challenge = try await signupAnswer.authentication().passkeySignupChallenge(email: "ada@example.com").start()
        #expect(signupAnswer.requests[0].url == "https://login.example.com/passkey/register")
        #expect(signupAnswer.requests[0].method == .post)
        #expect(
            signupAnswer.body() == #"{"client_id":"\#(Fixtures.clientID)","user_profile":{"email":"ada@example.com"}}"#)
        #expect(challenge.userName == "ada@example.com")
    }

    @Test func signupChallengeSendsAnEmptyProfileWhenGivenNothing() async throws {
        _ = try await signupAnswer.authentication().passkeySignupChallenge().start()
        #expect(signupAnswer.body() == #"{"client_id":"\#(Fixtures.clientID)","user_profile":{}}"#)
    }

    @Test func signupChallengeWithEveryMember() async throws {
        _ = try await signupAnswer.authentication().passkeySignupChallenge(
            email: "ada@example.com", phoneNumber: "+15551234567", username: "ada", name: "Ada Example",
            givenName: "Ada", familyName: "Example", nickname: "ada", picture: "https://example.com/a.png",
            userMetadata: ["plan": "trial"], connection: "Username-Password-Authentication",
            organization: "org_Zq81LxQ0aPj3Vt6c"
        ).start()
        #expect(
            signupAnswer.body()
                == #"{"client_id":"\#(Fixtures.clientID)","organization":"org_Zq81LxQ0aPj3Vt6c","#
                + #""realm":"Username-Password-Authentication","user_metadata":{"plan":"trial"},"#
                + #""user_profile":{"email":"ada@example.com","family_name":"Example","given_name":"Ada","#
                + #""name":"Ada Example","nickname":"ada","phone_number":"+15551234567","#
                + #""picture":"https://example.com/a.png","username":"ada"}}"#)
    }

    @Test func loginChallengeWithDefaultsAndWithRealmAndOrganization() async throws {
        let answer = ScriptedTransport(json: Fixtures.loginChallenge)
        let auth = try answer.authentication()
        _ = try await auth.passkeyLoginChallenge().start()
        _ = try await auth.passkeyLoginChallenge(connection: "db", organization: "org_1").start()
        #expect(answer.requests[0].url == "https://login.example.com/passkey/challenge")
        #expect(answer.body(0) == #"{"client_id":"\#(Fixtures.clientID)"}"#)
        #expect(answer.body(1) == #"{"client_id":"\#(Fixtures.clientID)","organization":"org_1","realm":"db"}"#)
    }

    @Test func everyRequestCarriesContentTypeAndAuth0Client() async throws {
        _ = try await signupAnswer.authentication().passkeySignupChallenge(email: "a@example.com").start()
        let request = signupAnswer.requests[0]
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Authorization") == nil)
        let value = try #require(request.header("Auth0-Client"))
        #expect(!value.contains("=") && !value.contains("+") && !value.contains("/"))
        let info = try JSONDecoder().decode([String: JSONValue].self, from: Data(Base64URL.decode(value)))
        #expect(info["name"] == .string("Auth0Passkeys"))
        #expect(info["env"]?.objectValue?["swift"] == .string("6.x"))
        #expect(info["env"]?.objectValue?["core"] == .string(Auth0ClientInfo.coreVersion))
        #expect(info["env"]?.objectValue?["linux"] != nil)
    }

    @Test func noAuth0ClientHeaderWhenDisabled() async throws {
        let client = HTTPClient(transport: signupAnswer, clientInfo: nil)
        let auth = try Authentication(clientId: "c", baseURL: "https://login.example.com", client: client)
        _ = try await auth.passkeySignupChallenge().start()
        #expect(signupAnswer.requests[0].header("Auth0-Client") == nil)
        #expect(signupAnswer.requests[0].header("Content-Type") == "application/json")
    }

    /// Spec §8 on ID-token validation's own fetches: the discovery document and the JWKS go
    /// through the client like every other request, from a validator made from a client and
    /// from one given a transport.
    @Test func idTokenValidationFetchesCarryContentTypeAndAuth0Client() async throws {
        let answer = ScriptedTransport { request, _ in
            let discovery = request.url.hasSuffix("openid-configuration")
            let body = discovery ? #"{"issuer":"https://login.example.com/"}"# : #"{"keys":[]}"#
            return .success(HTTPResponse(status: 200, body: Array(body.utf8)))
        }
        // Signed by no key the empty JWKS has: the JWKS is fetched, then the kid is unknown.
        let header = Base64URL.encode(Array(#"{"alg":"RS256","kid":"k1","typ":"JWT"}"#.utf8))
        let token = header + "." + Base64URL.encode(Array("{}".utf8)) + "." + Base64URL.encode([1, 2, 3])
        let fromClient = IDTokenValidator(authentication: try answer.authentication())
        #expect(try await fromClient.expectedIssuer() == "https://login.example.com/")
        await #expect(throws: IDTokenValidationError(.unknownKey, "")) { try await fromClient.validate(token) }
        let fromTransport = IDTokenValidator(
            clientId: Fixtures.clientID, issuer: "https://login.example.com/",
            jwksURL: "https://login.example.com/.well-known/jwks.json", transport: answer)
        await #expect(throws: IDTokenValidationError(.unknownKey, "")) { try await fromTransport.validate(token) }
        #expect(
            answer.requests.map(\.url) == [
                "https://login.example.com/.well-known/openid-configuration",
                "https://login.example.com/.well-known/jwks.json", "https://login.example.com/.well-known/jwks.json",
            ])
        for request in answer.requests {
            #expect(request.method == .get)
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Accept") == "application/json")
            #expect(request.header("Auth0-Client") == Auth0ClientInfo().headerValue)
        }
    }

    @Test func signupTokenRequest() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let challenge = try JSONDecoder().decode(PasskeySignupChallenge.self, from: Data(Fixtures.signupChallenge.utf8))
        let credentials = try await answer.authentication().login(passkey: Fixtures.Passkey(), challenge: challenge)
            .start()
        #expect(answer.requests[0].url == "https://login.example.com/oauth/token")
        #expect(
            answer.body()
                == #"{"auth_session":"Sx1.pq7Lr0-signup-session-opaque","authn_response":{"#
                + #""authenticatorAttachment":"platform","id":"cpZVUw","rawId":"cpZVUw","#
                + #""response":{"attestationObject":"o2NmbXQ","clientDataJSON":"eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0"},"#
                + #""type":"public-key"},"client_id":"\#(Fixtures.clientID)","#
                + #""grant_type":"urn:okta:params:oauth:grant-type:webauthn","#
                + #""scope":"openid profile email offline_access"}"#)
        #expect(credentials.accessToken == "AT-1")
        #expect(credentials.refreshToken == "v1.Mr5-refresh-opaque")
    }

    @Test func loginTokenRequestWithEveryParameter() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let challenge = try JSONDecoder().decode(PasskeyLoginChallenge.self, from: Data(Fixtures.loginChallenge.utf8))
        var passkey = Fixtures.Passkey()
        passkey.attachment = AuthenticatorAttachment(rawValue: "hybrid")
        _ = try await answer.authentication().login(
            passkey: passkey, challenge: challenge, connection: "db",
            audience: "https://api.example.com/", scope: "profile", organization: "org_1"
        ).start()
        #expect(
            answer.body()
                == #"{"audience":"https://api.example.com/","auth_session":"Lg4.xN2b-login-session-opaque","#
                + #""authn_response":{"id":"cpZVUw","rawId":"cpZVUw","#
                + #""response":{"authenticatorData":"AQID","clientDataJSON":"eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0","#
                + #""signature":"MEX_","userHandle":"uOKc"},"type":"public-key"},"#
                + #""client_id":"\#(Fixtures.clientID)","grant_type":"urn:okta:params:oauth:grant-type:webauthn","#
                + #""organization":"org_1","realm":"db","scope":"openid profile"}"#)
    }

    @Test(arguments: [
        ("openid profile", "openid profile"), ("profile email", "openid profile email"), ("", "openid "),
        ("openidx", "openid openidx"),
    ])
    func theOpenIDRule(scope: String, sent: String) async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let challenge = try JSONDecoder().decode(PasskeyLoginChallenge.self, from: Data(Fixtures.loginChallenge.utf8))
        _ = try await answer.authentication().login(
            passkey: Fixtures.Passkey(), challenge: challenge, scope: scope
        ).start()
        let body = try JSONDecoder().decode([String: JSONValue].self, from: Data(answer.requests[0].body ?? []))
        #expect(body["scope"] == .string(sent))
    }

    @Test func refreshWithoutAndWithAudience() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let auth = try answer.authentication()
        _ = try await auth.renew(withRefreshToken: "RT").start()
        _ = try await auth.renew(withRefreshToken: "RT", scope: "profile").start()
        _ = try await auth.renew(withRefreshToken: "RT", audience: "https://login.example.com/me/", scope: "read:me")
            .start()
        #expect(
            answer.body(0)
                == #"{"client_id":"\#(Fixtures.clientID)","grant_type":"refresh_token","refresh_token":"RT"}"#)
        #expect(
            answer.body(1)
                == #"{"client_id":"\#(Fixtures.clientID)","grant_type":"refresh_token","refresh_token":"RT","scope":"profile"}"#
        )
        #expect(
            answer.body(2)
                == #"{"audience":"https://login.example.com/me/","client_id":"\#(Fixtures.clientID)","#
                + #""grant_type":"refresh_token","refresh_token":"RT","scope":"openid read:me"}"#)
    }

    @Test func parametersReplaceMembersAndKeepTheOpenIDRule() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens())
        _ = try await answer.authentication().renew(withRefreshToken: "RT")
            .parameters(["scope": .string("email"), "device": .string("ci")]).headers(["X-Trace": "1"]).start()
        #expect(
            answer.body()
                == #"{"client_id":"\#(Fixtures.clientID)","device":"ci","grant_type":"refresh_token","#
                + #""refresh_token":"RT","scope":"openid email"}"#)
        #expect(answer.requests[0].header("X-Trace") == "1")
    }

    @Test func revokeAndUserInfo() async throws {
        let answer = ScriptedTransport(json: #"{"sub":"auth0|ada","email_verified":true,"plan":"trial"}"#)
        let auth = try answer.authentication()
        try await auth.revoke(refreshToken: "RT").start()
        let user = try await auth.userInfo(withAccessToken: "AT").start()
        #expect(answer.requests[0].url == "https://login.example.com/oauth/revoke")
        #expect(answer.body(0) == #"{"client_id":"\#(Fixtures.clientID)","token":"RT"}"#)
        #expect(answer.requests[1].method == .get)
        #expect(answer.requests[1].url == "https://login.example.com/userinfo")
        #expect(answer.requests[1].body == nil)
        #expect(answer.requests[1].header("Authorization") == "Bearer AT")
        #expect(answer.requests[1].header("Content-Type") == "application/json")
        #expect(user.sub == "auth0|ada" && user.emailVerified == true && user.customClaims["plan"] == .string("trial"))
    }

    @Test func myAccountEnrollmentChallengeAndVerify() async throws {
        let answer = ScriptedTransport { request, _ in
            if request.url.hasSuffix("/verify") {
                return .success(HTTPResponse(status: 201, body: Array(DecodingTests.passkeyMethod.utf8)))
            }
            return .success(
                HTTPResponse(
                    status: 202,
                    headers: [
                        (
                            name: "location",
                            value: "https://login.example.com/me/v1/authentication-methods/passkey%7Cnew"
                        )
                    ],
                    body: Array(Fixtures.signupChallenge.utf8)))
        }
        let methods = try answer.myAccount().authenticationMethods
        let challenge = try await methods.passkeyEnrollmentChallenge().start()
        _ = try await methods.passkeyEnrollmentChallenge(userIdentityId: "65f0c2", connection: "db").start()
        #expect(challenge.authenticationMethodId == "passkey%7Cnew")
        #expect(answer.requests[0].url == "https://login.example.com/me/v1/authentication-methods")
        #expect(answer.requests[0].header("Authorization") == "Bearer AT-my-account")
        #expect(answer.body(0) == #"{"type":"passkey"}"#)
        #expect(answer.body(1) == #"{"connection":"db","identity_user_id":"65f0c2","type":"passkey"}"#)

        let method = try await methods.enroll(passkey: Fixtures.Passkey(), challenge: challenge).start()
        let raw = PasskeyEnrollmentChallenge(
            authenticationMethodId: "passkey|new", authenticationSession: "s", relyingPartyId: "login.example.com",
            userId: Data([1]), userName: "ada", challengeData: Data([2]))
        _ = try await methods.enroll(passkey: Fixtures.Passkey(), challenge: raw).start()
        #expect(answer.requests[2].url == "https://login.example.com/me/v1/authentication-methods/passkey%7Cnew/verify")
        #expect(answer.requests[3].url == answer.requests[2].url)
        #expect(
            answer.body(2)
                == #"{"auth_session":"Sx1.pq7Lr0-signup-session-opaque","authn_response":{"#
                + #""authenticatorAttachment":"platform","id":"cpZVUw","rawId":"cpZVUw","#
                + #""response":{"attestationObject":"o2NmbXQ","clientDataJSON":"eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0"},"#
                + #""type":"public-key"}}"#)
        #expect(method.id == "passkey|dev_7Hq2Nw0cYtR4")
    }

    @Test func myAccountListGetAndDelete() async throws {
        let answer = ScriptedTransport { request, _ in
            switch request.method {
            case .delete: .success(HTTPResponse(status: 204))
            case .get where request.url.contains("?"):
                .success(
                    HTTPResponse(
                        status: 200,
                        body: Array(
                            #"{"authentication_methods":[{"id":"passkey|a","type":"passkey","created_at":"2025-05-15T13:29:32.321Z","usage":["primary"]}]}"#
                                .utf8)))
            default:
                .success(
                    HTTPResponse(
                        status: 200,
                        body: Array(#"{"id":"passkey|a","type":"passkey","created_at":"x","usage":[]}"#.utf8)))
            }
        }
        let methods = try answer.myAccount().authenticationMethods
        let list = try await methods.getAuthenticationMethods(type: "passkey").start()
        _ = try await methods.getAuthenticationMethod(by: "passkey|a").start()
        try await methods.deleteAuthenticationMethod(by: "passkey|a").start()
        #expect(list.map(\.id) == ["passkey|a"])
        #expect(
            answer.requests.map(\.url) == [
                "https://login.example.com/me/v1/authentication-methods?type=passkey",
                "https://login.example.com/me/v1/authentication-methods/passkey%7Ca",
                "https://login.example.com/me/v1/authentication-methods/passkey%7Ca",
            ])
        #expect(answer.requests.map(\.method) == [.get, .get, .delete])
    }

    /// §19.1: only the given keys go out, to the method's path with `|` encoded; §19.2: the
    /// factors come back as they are listed, `usage` optional.
    @Test func myAccountUpdateAndFactors() async throws {
        let answer = ScriptedTransport { request, _ in
            request.url.hasSuffix("/factors")
                ? .success(
                    HTTPResponse(
                        status: 200,
                        body: Array(#"{"factors":[{"type":"passkey","usage":["primary"]},{"type":"totp"}]}"#.utf8)))
                : .success(
                    HTTPResponse(
                        status: 200,
                        body: Array(
                            #"{"id":"passkey|a","type":"passkey","name":"Work laptop","created_at":"x","usage":[]}"#
                                .utf8)))
        }
        let methods = try answer.myAccount().authenticationMethods
        let renamed = try await methods.update(id: "passkey|a", name: "Work laptop").start()
        _ = try await methods.update(id: "passkey%7Ca", preferredAuthenticationMethod: "sms").start()
        let factors = try await methods.factors().start()
        #expect(renamed.name == "Work laptop")
        #expect(answer.body(0) == #"{"name":"Work laptop"}"#)
        #expect(answer.body(1) == #"{"preferred_authentication_method":"sms"}"#)
        #expect(answer.requests.map(\.method) == [.patch, .patch, .get])
        #expect(
            answer.requests.map(\.url) == [
                "https://login.example.com/me/v1/authentication-methods/passkey%7Ca",
                "https://login.example.com/me/v1/authentication-methods/passkey%7Ca",
                "https://login.example.com/me/v1/factors",
            ])
        #expect(factors.map(\.type) == ["passkey", "totp"])
        #expect(factors.map(\.usage) == [["primary"], []])
    }

    @Test(arguments: [
        ("login.example.com", "https://login.example.com/"), ("login.example.com/", "https://login.example.com/"),
        ("https://login.example.com", "https://login.example.com/"),
    ])
    func theDomainRule(domain: String, url: String) {
        #expect(Authentication(clientId: "c", domain: domain).url == url)
        #expect(MyAccount(token: "t", domain: domain).url == url + "me/v1")
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080", true), ("http://localhost:1", true), ("http://[::1]:9/", true),
        ("https://login.example.com", true), ("http://login.example.com", false), ("http://127.0.0.1.nip.io", false),
        ("ftp://127.0.0.1", false), ("login.example.com", false),
    ])
    func plainHTTPOnlyToLoopback(baseURL: String, accepted: Bool) {
        let result = Result { () throws(AuthenticationError) in try Authentication(clientId: "c", baseURL: baseURL) }
        #expect(((try? result.get()) != nil) == accepted)
        if case .failure(let error) = result {
            #expect(error.code == .invalidConfiguration)
        }
        #expect(((try? MyAccount(token: "t", baseURL: baseURL)) != nil) == accepted)
    }
}
