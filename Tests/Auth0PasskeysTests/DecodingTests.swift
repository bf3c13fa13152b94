import Auth0Passkeys
import FoundationEssentials
import Testing
import WebAuthn

/// The answers, decoded as the spec says, lenient where the SDK is lenient.
@Suite struct DecodingTests {
    static let passkeyMethod = """
        {"id":"passkey|dev_7Hq2Nw0cYtR4","type":"passkey","identity_user_id":"65f0c2d1a9e4b7c3d2e1f0a9",\
        "user_agent":"PasskeyCLI/0.1 libcurl/8.5.0","key_id":"cpZVU-ov17HGlsjBkf3mSqJ5pDs",\
        "public_key":"pQECAyYgASFYIMmZV5rlXLw4dl8Lfd2L7WdoQgCu4JG3yYckU/BjeyTrIlggOpc+MQQggZ1b7S6om9tH6I61mkzbL3vFd+xtShBG9lg=",\
        "user_handle":"uOKcVB2PU486niGkaj1TzCo0a15AkM1QD1Z_3WGANJI","credential_device_type":"multi_device",\
        "credential_backed_up":true,"created_at":"2025-05-15T13:29:32.321Z",\
        "aaguid":"00000000-0000-0000-0000-000000000000","relying_party_id":"login.example.com",\
        "usage":["primary"],"transports":["internal"]}
        """

    func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    @Test func signupChallengeSetsEveryProperty() throws {
        let challenge = try decode(PasskeySignupChallenge.self, Fixtures.signupChallenge)
        #expect(challenge.authenticationSession == "Sx1.pq7Lr0-signup-session-opaque")
        #expect(challenge.relyingPartyId == "login.example.com")
        #expect(challenge.userName == "ada@example.com")
        #expect(Array(challenge.userId) == (try Base64URL.decode("uOKcVB2PU486niGkaj1TzCo0a15AkM1QD1Z_3WGANJI")))
        #expect(Array(challenge.challengeData) == (try Base64URL.decode("nTXfsQXD8KSV6zvN0MxIhtTrBJtZuVHXonxDMbQYPrc")))
        #expect(challenge.options.pubKeyCredParams.map(\.alg) == [-8, -7, -257])
        #expect(challenge.options.user.displayName == "Ada Example")
        #expect(challenge.options.timeout == 60000)
    }

    @Test func signupChallengeWithOnlyTheRequiredMembers() throws {
        let challenge = try decode(
            PasskeySignupChallenge.self,
            #"{"auth_session":"s","authn_params_public_key":{"challenge":"AAAA","rp":{"id":"rp.example"},"#
                + #""user":{"id":"AQ","name":"ada"},"pubKeyCredParams":"ignored"}}"#)
        #expect(challenge.options.rp.name == "rp.example")
        #expect(challenge.options.user.displayName == "ada")
        #expect(challenge.options.pubKeyCredParams.isEmpty)
    }

    @Test(arguments: ["challenge", "user.id"])
    func signupChallengeWithUndecodableBinaryFails(member: String) {
        let json = Fixtures.signupChallenge.replacingOccurrences(
            of: member == "challenge"
                ? "nTXfsQXD8KSV6zvN0MxIhtTrBJtZuVHXonxDMbQYPrc" : "uOKcVB2PU486niGkaj1TzCo0a15AkM1QD1Z_3WGANJI",
            with: "not base64url!")
        #expect(throws: DecodingError.self) { try decode(PasskeySignupChallenge.self, json) }
    }

    @Test func loginChallenge() throws {
        let challenge = try decode(PasskeyLoginChallenge.self, Fixtures.loginChallenge)
        #expect(challenge.relyingPartyId == "login.example.com")
        #expect(challenge.authenticationSession == "Lg4.xN2b-login-session-opaque")
        #expect(challenge.options.userVerification == .preferred)
        #expect(throws: DecodingError.self) {
            try decode(PasskeyLoginChallenge.self, Fixtures.loginChallenge.replacingOccurrences(of: "rpId", with: "rp"))
        }
    }

    @Test func challengesPrintNoSecret() throws {
        let signup = try decode(PasskeySignupChallenge.self, Fixtures.signupChallenge)
        let login = try decode(PasskeyLoginChallenge.self, Fixtures.loginChallenge)
        for text in ["\(signup)", "\(login)", String(reflecting: signup), dumped(signup), dumped(login)] {
            #expect(!text.contains("session-opaque") && !text.contains("nTXfsQXD8") && !text.contains("vs4lGAgo"))
        }
    }

    @Test(arguments: ["86400", #""86400""#])
    func credentialsReadExpiresInAsNumberOrString(expiresIn: String) async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens(expiresIn: expiresIn))
        let before = Date()
        let credentials = try await answer.authentication().renew(withRefreshToken: "RT").start()
        #expect(credentials.expiresAt.timeIntervalSince(before) > 86399)
        #expect(credentials.expiresAt.timeIntervalSince(before) < 86500)
        #expect(credentials.idToken == Fixtures.idToken)
        #expect(credentials.scope == "openid profile email offline_access")
        for text in ["\(credentials)", dumped(credentials)] {
            #expect(!text.contains("AT-1") && !text.contains("v1.Mr5") && !text.contains(Fixtures.idToken))
        }
    }

    @Test func credentialsWithNoMembers() async throws {
        let credentials = try await ScriptedTransport(json: "{}").authentication().renew(withRefreshToken: "RT").start()
        #expect(credentials.accessToken == "" && credentials.idToken == "" && credentials.refreshToken == nil)
        #expect(credentials.expiresAt <= Date())
    }

    @Test func userInfoNeedsSub() async throws {
        let error = await #expect(throws: AuthenticationError.self) {
            try await ScriptedTransport(json: #"{"name":"Ada"}"#).authentication().userInfo(withAccessToken: "AT")
                .start()
        }
        #expect(error?.code == .plain)
        #expect(error?.cause is DecodingError)
    }

    @Test func userInfoClaims() throws {
        let user = try decode(
            UserInfo.self,
            #"{"sub":"auth0|1","email":"a@example.com","email_verified":"yes","phone_number_verified":false,"#
                + #""picture":"https://example.com/p.png","address":{"country":"NZ"},"#
                + #""updated_at":"2025-05-15T13:29:32.321Z","https://example.com/roles":["admin"]}"#)
        #expect(user.emailVerified == nil)
        #expect(user.phoneNumberVerified == false)
        #expect(user.picture?.absoluteString == "https://example.com/p.png")
        #expect(user.address == ["country": "NZ"])
        #expect(user.updatedAt != nil)
        #expect(Array(user.customClaims.keys) == ["https://example.com/roles"])
    }

    @Test func passkeyAuthenticationMethod() throws {
        let method = try decode(PasskeyAuthenticationMethod.self, Self.passkeyMethod)
        #expect(method.id == "passkey|dev_7Hq2Nw0cYtR4")
        #expect(method.credential.deviceType == .multiDevice)
        #expect(method.credential.isBackedUp)
        #expect(method.credential.publicKey.count == 77)
        #expect(method.aaguid == "00000000-0000-0000-0000-000000000000")
        #expect(method.relyingPartyIdentifier == "login.example.com")
        #expect(method.userAgent == "PasskeyCLI/0.1 libcurl/8.5.0")
        let noAgent = try decode(
            PasskeyAuthenticationMethod.self,
            Self.passkeyMethod.replacingOccurrences(of: #""user_agent":"PasskeyCLI/0.1 libcurl/8.5.0","#, with: ""))
        #expect(noAgent.userAgent == nil)
    }

    @Test(arguments: [
        (#""credential_backed_up":true"#, #""credential_backed_up":"true""#),
        (#""created_at":"2025-05-15T13:29:32.321Z""#, #""created_at":"2025-05-15T13:29:32Z""#),
        ("9lg=", "9lg"),
        (#""multi_device""#, #""synced""#),
        (#""aaguid":"00000000-0000-0000-0000-000000000000","#, ""),
        (#""user_handle":"uOKcVB2PU486niGkaj1TzCo0a15AkM1QD1Z_3WGANJI""#, #""user_handle":7"#),
    ])
    func passkeyAuthenticationMethodNegatives(original: String, replacement: String) {
        #expect(Self.passkeyMethod.contains(original))
        #expect(throws: DecodingError.self) {
            try decode(
                PasskeyAuthenticationMethod.self,
                Self.passkeyMethod.replacingOccurrences(of: original, with: replacement))
        }
    }

    @Test(arguments: [[(name: String, value: String)](), [(name: "Retry-After", value: "1")]])
    func enrollmentChallengeNeedsLocation(headers: [(name: String, value: String)]) async throws {
        let answer = ScriptedTransport(status: 202, json: Fixtures.signupChallenge, headers: headers)
        let error = await #expect(throws: MyAccountError.self) {
            try await answer.myAccount().authenticationMethods.passkeyEnrollmentChallenge().start()
        }
        #expect(error?.code == .plain)
        let cause = String(describing: error?.cause)
        #expect(cause.contains("Missing authentication method identifier"))
    }

    @Test func apiCredentialsFromAnExchange() {
        let credentials = Credentials(accessToken: "AT", tokenType: "Bearer", expiresAt: Date(timeIntervalSince1970: 5))
        let api = APICredentials(credentials)
        #expect(api.scope == "" && api.accessToken == "AT" && api.expiresAt == Date(timeIntervalSince1970: 5))
        #expect(!"\(api)".contains("AT,") && !dumped(api).contains("AT"))
    }

    func dumped(_ value: some Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
