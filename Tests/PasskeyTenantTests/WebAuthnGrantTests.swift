import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import Testing
import WebAuthn

/// `POST /oauth/token` with the webauthn grant: signup and login with real passkeys
/// (auth0-passkey-api.md §3, §12.3).
@Suite struct WebAuthnGrantTests {
    @Test func signupIssuesTokensAndStoresTheUser() async throws {
        let harness = try await TenantHarness()
        let tokens = try await harness.router { http in try await harness.signUp(http) }
        #expect(tokens.tokenType == "Bearer")
        #expect(tokens.expiresIn == 86_400)
        #expect(tokens.scope == "openid profile email offline_access")
        #expect(tokens.refreshToken != nil)
        let id = try jwtClaims(tokens.idToken)
        #expect(id["iss"] == .string("https://localhost/"))
        #expect(id["aud"] == .string(harness.clientID))
        #expect(id["email"] == .string("ada@example.com"))
        #expect(id["email_verified"] == .bool(false))
        #expect(id["sub"]?.stringValue?.hasPrefix("auth0|") == true)
        let access = try jwtClaims(tokens.accessToken)
        #expect(access["aud"] == .string("https://localhost/userinfo"))
        #expect(access["azp"] == .string(harness.clientID))
        #expect(access["sub"] == id["sub"])
        #expect(access["exp"] == .number(1_800_000_000 + 86_400))
    }

    @Test func loginFindsTheUserByTheirPasskey() async throws {
        let harness = try await TenantHarness()
        let (signup, login) = try await harness.router { http in
            (try await harness.signUp(http), try await harness.logIn(http, scope: "openid"))
        }
        #expect(try jwtClaims(login.idToken)["sub"] == jwtClaims(signup.idToken)["sub"])
        #expect(login.scope == "openid")
        #expect(login.refreshToken == nil)
        #expect(try jwtClaims(login.idToken)["email"] == nil)
    }

    @Test func openidIsAlwaysGrantedAndUnknownScopesDropped() async throws {
        let harness = try await TenantHarness()
        let tokens = try await harness.router { http in
            try await harness.signUp(http, scope: "email fly:to-the-moon")
        }
        #expect(tokens.scope == "openid email")
        #expect(tokens.idToken != nil)
    }

    @Test func anAudienceGetsItsScopes() async throws {
        let harness = try await TenantHarness()
        let tokens = try await harness.router { http in
            try await harness.signUp(http, scope: "openid read:events", audience: "https://localhost/api/")
        }
        #expect(tokens.scope == "openid read:events")
        #expect(
            try jwtClaims(tokens.accessToken)["aud"]
                == .array([.string("https://localhost/api/"), .string("https://localhost/userinfo")]))
    }

    @Test func anUnknownAudienceIsDeniedAndNothingStored() async throws {
        let harness = try await TenantHarness()
        let (result, retry) = try await harness.router { http in
            let (session, response) = try await harness.signupResponse(http)
            let result = try await harness.grant(
                http, session: session, response: response,
                audience: "https://elsewhere.example/")
            return (result, try await harness.signupChallenge(http))
        }
        expectRefused(result, "access_denied", status: .forbidden)
        #expect(retry.options.user.name == "ada@example.com")
    }

    @Test func theSDKShapedBodiesAreAccepted() async throws {
        // Exactly what Auth0.swift sends: no clientExtensionResults, no transports, `\/` escapes.
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            let challenge = try await harness.signupChallenge(http)
            let r = try await harness.device.create(challenge.options, origin: TenantHarness.origin)
            let body =
                #"{"authn_response":{"rawId":"\#(r.rawId.string)","type":"public-key","id":"\#(r.id)","#
                + #""response":{"attestationObject":"\#(r.response.attestationObject.string)","#
                + #""clientDataJSON":"\#(r.response.clientDataJSON.string)"}},"#
                + #""scope":"openid read:events","audience":"https:\/\/localhost\/api\/","grant_type":"urn:okta:params:oauth:grant-type:webauthn","#
                + #""auth_session":"\#(challenge.authSession.text)","client_id":"\#(harness.clientID)","#
                + #""realm":"Username-Password-Authentication"}"#
            let signup = try await http.send(.post, "/oauth/token", raw: body)
            let login = try await harness.loginChallenge(http)
            let a = try await harness.device.get(login.options, origin: TenantHarness.origin)
            let loginBody =
                #"{"client_id":"\#(harness.clientID)","grant_type":"urn:okta:params:oauth:grant-type:webauthn","#
                + #""auth_session":"\#(login.authSession.text)","scope":"openid","authn_response":{"#
                + #""id":"\#(a.id)","rawId":"\#(a.rawId.string)","type":"public-key","authenticatorAttachment":"platform","#
                + #""response":{"clientDataJSON":"\#(a.response.clientDataJSON.string)","#
                + #""authenticatorData":"\#(a.response.authenticatorData.string)","#
                + #""signature":"\#(a.response.signature.string)","userHandle":"\#(a.response.userHandle?.string ?? "")"}}}"#
            return (signup, try await http.send(.post, "/oauth/token", raw: loginBody))
        }
        #expect(result.0.status == .ok, "\(result.0.text)")
        #expect(result.1.status == .ok, "\(result.1.text)")
    }

    /// A security key counts its signatures (WebAuthn L3 §6.1.1); the tenant keeps the counter of
    /// each login and refuses one that is not above it (§7.2 step 22), as a clone's would be. The
    /// key is rolled back by one so that it sends the stored counter again: refused; one more is
    /// accepted. So the stored counter is exactly the last login's, neither older nor newer.
    @Test func aSecurityKeysCounterIsStoredAndChecked() async throws {
        let harness = try await TenantHarness()
        let store = InMemoryCredentialStore()
        let key = WebAuthnClient(authenticator: SoftwareAuthenticator(store: store, profile: .securityKey))
        let (counters, replayed) = try await harness.router { http in
            _ = try await harness.signUp(http, device: key)
            var counters: [UInt32] = []
            for _ in 0..<2 {
                _ = try await harness.logIn(http, device: key)
                counters.append(try #require(await store.all().credentials.first).signCount)
            }
            let credential = try #require(await store.all().credentials.first)
            try await store.update(try credential.changing(signCount: credential.signCount - 1))
            let replayed = await #expect(throws: HarnessError.self) { try await harness.logIn(http, device: key) }
            _ = try await harness.logIn(http, device: key)
            return (counters, replayed?.result)
        }
        #expect(counters == [1, 2])
        #expect(replayed?.errorCode == "invalid_grant")
        #expect(replayed?.text.contains(WebAuthnError.Code.signCountNotIncreased.rawValue) == true)
    }
}
