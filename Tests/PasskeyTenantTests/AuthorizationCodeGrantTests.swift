import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import Testing
import WebAuthn

/// `POST /oauth/token` with `grant_type=authorization_code` (RFC 6749 §4.1.3, RFC 7636 §4.6;
/// auth0-passkey-api.md §14.3): PKCE, binding, single use, expiry, replay revocation, and the
/// ID token's Web Auth claims.
@Suite struct AuthorizationCodeGrantTests {
    @Test func theCodeBuysTokensWithTheRequestsClaims() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            let (code, _) = try await flow.signUpForCode(
                http, ["audience": "https://localhost/api/", "scope": "openid email offline_access read:events"])
            return try await flow.exchange(http, code: code)
        }
        #expect(result.status == .ok, "\(result.text)")
        #expect(result.headers[.cacheControl] == "no-store")
        let tokens = try result.decode(TokenResponse.self)
        #expect(tokens.tokenType == "Bearer")
        #expect(tokens.scope == "openid email offline_access read:events")
        #expect(tokens.refreshToken != nil)
        let id = try jwtClaims(tokens.idToken)
        #expect(id["nonce"] == .string(flow.nonce))
        #expect(id["auth_time"] == .number(1_800_000_000))
        #expect(id["amr"] == .array([.string("webauthn")]))
        #expect(id["aud"] == .string(harness.clientID))
        #expect(id["email"] == .string("ada@example.com"))
        #expect(id["org_id"] == nil)
        let access = try jwtClaims(tokens.accessToken)
        #expect(access["aud"] == .array([.string("https://localhost/api/"), .string("https://localhost/userinfo")]))
    }

    @Test func withoutANonceTheIDTokenHasNone() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let tokens = try await harness.router { http in
            let (code, _) = try await flow.signUpForCode(http, ["nonce": nil])
            return try await flow.exchange(http, code: code).decode(TokenResponse.self)
        }
        #expect(try jwtClaims(tokens.idToken)["nonce"] == nil)
    }

    @Test(arguments: ["org_Zq81LxQ0aPj3Vt6c", "Acme-Corp"])
    func theOrganizationIsAnIDOrAName(organization: String) async throws {
        var configuration = TenantConfiguration()
        configuration.organizations = [
            TenantOrganization(name: "acme-corp", id: "org_Zq81LxQ0aPj3Vt6c", signupEnabled: true)
        ]
        configuration.organizationUsage = .allow
        let harness = try await TenantHarness(configuration: configuration)
        let flow = WebAuthFlow(harness)
        let tokens = try await harness.router { http in
            let (code, _) = try await flow.signUpForCode(http, ["organization": organization])
            return try await flow.exchange(http, code: code).decode(TokenResponse.self)
        }
        for token in [tokens.idToken, tokens.accessToken] {
            let claims = try jwtClaims(token)
            #expect(claims["org_id"] == .string("org_Zq81LxQ0aPj3Vt6c"))
            #expect(claims["org_name"] == .string("acme-corp"))
        }
    }

    @Test func aSkippedCeremonyKeepsTheSessionsAuthTime() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let tokens = try await harness.router { http in
            let (_, session) = try await flow.signUpForCode(http)
            harness.clock.advance(by: 500)
            let skipped = try await flow.authorize(http, session: session)
            let code = try flow.code(skipped)
            return try await flow.exchange(http, code: code).decode(TokenResponse.self)
        }
        let id = try jwtClaims(tokens.idToken)
        #expect(id["auth_time"] == .number(1_800_000_000))
        #expect(id["iat"] == .number(1_800_000_500))
    }

    @Test(
        arguments: [
            nil, "", "CsRC8DIU_OGK3QTfW0W9ymwzTSt7EYc-6DpbRZwFNC9", "short", String(repeating: "a", count: 129),
        ] as [String?])
    func aWrongOrMissingVerifierIsRefused(verifier: String?) async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            let (code, _) = try await flow.signUpForCode(http)
            var body: [String: String] = [
                "grant_type": "authorization_code", "client_id": harness.clientID, "code": code,
                "redirect_uri": flow.redirectURI,
            ]
            body["code_verifier"] = verifier
            return try await http.send(.post, "/oauth/token", json: body)
        }
        expectRefused(result, "invalid_grant", status: .forbidden, description: "Failed to verify code verifier")
    }

    @Test func thePlainChallengeOfTheVerifierIsNotAccepted() async throws {
        // A client that sent the verifier itself as the challenge (the `plain` method) fails.
        let harness = try await TenantHarness()
        var custom = WebAuthFlow(harness)
        custom.challenge = custom.verifier
        let flow = custom
        let result = try await harness.router { http in
            let (code, _) = try await flow.signUpForCode(http)
            return try await flow.exchange(http, code: code)
        }
        expectRefused(result, nil, status: .forbidden, description: "Failed to verify code verifier")
    }

    @Test(arguments: ["unknown", "expired", "reused"])
    func anUnknownExpiredOrSpentCodeIsInvalid(kind: String) async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            let (code, _) = try await flow.signUpForCode(http)
            switch kind {
            case "unknown": return try await flow.exchange(http, code: Base64URL.encode(Array(repeating: 1, count: 32)))
            case "expired": harness.clock.advance(by: 61)
            default: _ = try await flow.exchange(http, code: code)
            }
            return try await flow.exchange(http, code: code)
        }
        expectRefused(result, "invalid_grant", status: .forbidden, description: "Invalid authorization code")
    }

    @Test func aCodeStillWorksJustBeforeItExpires() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            let (code, _) = try await flow.signUpForCode(http)
            harness.clock.advance(by: 59)
            return try await flow.exchange(http, code: code)
        }
        #expect(result.status == .ok)
    }

    @Test(arguments: ["http://127.0.0.1:53118/callback", "http://localhost:53117/callback", ""])
    func anotherRedirectURIIsRefused(redirectURI: String) async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (result, spent) = try await harness.router { http in
            let (code, _) = try await flow.signUpForCode(http)
            let result = try await flow.exchange(http, code: code, redirectURI: redirectURI)
            // The code was spent by the attempt.
            return (result, try await flow.exchange(http, code: code))
        }
        expectRefused(result, "invalid_grant", status: .forbidden)
        #expect(spent.status == .forbidden)
    }

    @Test func anUnknownClientIsRefusedBeforeTheCodeIsLookedAt() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (refused, stillGood) = try await harness.router { http in
            let (code, _) = try await flow.signUpForCode(http)
            let refused = try await http.send(
                .post, "/oauth/token",
                json: TokenRequest(
                    grantType: TokenRequest.authorizationCodeGrant, clientID: "another-client", code: Secret(code),
                    codeVerifier: Secret(flow.verifier), redirectURI: flow.redirectURI))
            return (refused, try await flow.exchange(http, code: code))
        }
        expectRefused(refused, "invalid_client", status: .unauthorized)
        #expect(stillGood.status == .ok)
    }

    @Test func aReplayedCodeRevokesWhatItIssued() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (before, replay, after, refreshed) = try await harness.router { http in
            let (code, _) = try await flow.signUpForCode(
                http, ["audience": "https://localhost/api/", "scope": "openid offline_access read:events"])
            let tokens = try await flow.exchange(http, code: code).decode(TokenResponse.self)
            let bearer = tokens.accessToken.text
            let before = [
                try await http.send(.get, "/userinfo", bearer: bearer),
                try await http.send(.get, "/api/events", bearer: bearer),
            ]
            let replay = try await flow.exchange(http, code: code)
            let after = [
                try await http.send(.get, "/userinfo", bearer: bearer),
                try await http.send(.get, "/api/events", bearer: bearer),
            ]
            let refreshed = try await harness.refresh(http, try #require(tokens.refreshToken))
            return (before, replay, after, refreshed)
        }
        #expect(before.map(\.status) == [.ok, .ok])
        expectRefused(replay, nil, status: .forbidden, description: "Invalid authorization code")
        #expect(after.map(\.status) == [.unauthorized, .unauthorized])
        #expect(after.map(\.errorCode) == ["invalid_token", "invalid_token"])
        #expect(after[0].headers[.wwwAuthenticate]?.contains("revoked") == true)
        expectRefused(refreshed, "invalid_grant", status: .forbidden, saying: "Unknown or invalid refresh token.")
    }

    @Test func aReplayRevokesNothingElse() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (other, userInfo) = try await harness.router { http in
            let (first, _) = try await flow.signUpForCode(http)
            let (second, _) = try await flow.logInForCode(http)
            let other = try await flow.exchange(http, code: second).decode(TokenResponse.self)
            _ = try await flow.exchange(http, code: first)
            _ = try await flow.exchange(http, code: first)
            return (other, try await http.send(.get, "/userinfo", bearer: other.accessToken.text))
        }
        #expect(userInfo.status == .ok)
        #expect(other.refreshToken != nil)
    }

    @Test func aReplayRevokesTheRotatedRefreshTokensToo() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let refreshed = try await harness.router { http in
            let (code, _) = try await flow.signUpForCode(http)
            let tokens = try await flow.exchange(http, code: code).decode(TokenResponse.self)
            let rotated = try await harness.refresh(http, try #require(tokens.refreshToken)).decode(TokenResponse.self)
            _ = try await flow.exchange(http, code: code)
            return try await harness.refresh(http, try #require(rotated.refreshToken))
        }
        #expect(refreshed.status == .forbidden)
    }

    @Test func aRefreshKeepsTheOriginalAuthTime() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let refreshed = try await harness.router { http in
            let (code, _) = try await flow.signUpForCode(http)
            let tokens = try await flow.exchange(http, code: code).decode(TokenResponse.self)
            harness.clock.advance(by: 3_600)
            return try await harness.refresh(http, try #require(tokens.refreshToken)).decode(TokenResponse.self)
        }
        let id = try jwtClaims(refreshed.idToken)
        #expect(id["auth_time"] == .number(1_800_000_000))
        #expect(id["iat"] == .number(1_800_003_600))
        #expect(id["amr"] == .array([.string("webauthn")]))
        #expect(id["nonce"] == nil)
    }

    @Test func theWebAuthnGrantsIDTokenSaysWhenAndHow() async throws {
        let harness = try await TenantHarness()
        let (signup, login) = try await harness.router { http in
            let signup = try await harness.signUp(http)
            harness.clock.advance(by: 10)
            return (signup, try await harness.logIn(http))
        }
        #expect(try jwtClaims(signup.idToken)["auth_time"] == .number(1_800_000_000))
        #expect(try jwtClaims(login.idToken)["auth_time"] == .number(1_800_000_010))
        #expect(try jwtClaims(login.idToken)["amr"] == .array([.string("webauthn")]))
        #expect(try jwtClaims(login.idToken)["nonce"] == nil)
    }

    // MARK: Form bodies

    @Test func theTokenEndpointReadsFormBodies() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (exchanged, refreshed) = try await harness.router { http in
            let (code, _) = try await flow.signUpForCode(http)
            let form = WebAuthFlow.query([
                ("grant_type", "authorization_code"), ("client_id", harness.clientID), ("code", code),
                ("code_verifier", flow.verifier), ("redirect_uri", flow.redirectURI),
            ])
            let exchanged = try await http.send(
                .post, "/oauth/token", raw: form, contentType: "application/x-www-form-urlencoded")
            let tokens = try exchanged.decode(TokenResponse.self)
            let refresh =
                "grant_type=refresh_token&client_id=\(harness.clientID)&refresh_token="
                + WebAuthFlow.encode(try #require(tokens.refreshToken).text) + "&scope=openid+email"
            let refreshed = try await http.send(
                .post, "/oauth/token", raw: refresh, contentType: "application/x-www-form-urlencoded; charset=utf-8")
            return (exchanged, refreshed)
        }
        #expect(exchanged.status == .ok, "\(exchanged.text)")
        #expect(refreshed.status == .ok, "\(refreshed.text)")
        #expect(try refreshed.decode(TokenResponse.self).scope == "openid email")
    }

    @Test func aFormWithARepeatedParameterIsRefused() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(
                .post, "/oauth/token", raw: "grant_type=refresh_token&client_id=\(harness.clientID)&client_id=x",
                contentType: "application/x-www-form-urlencoded")
        }
        expectRefused(result, "invalid_request", status: .badRequest)
    }

    @Test func otherMediaTypesAreStillRefused() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(
                .post, "/oauth/token", raw: "grant_type=refresh_token", contentType: "multipart/form-data")
        }
        #expect(result.status == .unsupportedMediaType)
    }
}
