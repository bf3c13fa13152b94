import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The refresh grant with rotation, the exchange for another audience, and `/oauth/revoke`
/// (auth0-passkey-api.md §6.1, §6.2, §6.4, §12.4, §12.5).
@Suite struct RefreshAndRevokeTests {
    @Test func refreshRotatesAndReturnsAnIDToken() async throws {
        let harness = try await TenantHarness()
        let (signup, renewed) = try await harness.router { http in
            let signup = try await harness.signUp(http)
            return (signup, try await harness.refresh(http, try #require(signup.refreshToken)))
        }
        #expect(renewed.status == .ok)
        let tokens = try renewed.decode(TokenResponse.self)
        #expect(tokens.idToken != nil)
        #expect(tokens.refreshToken != nil)
        #expect(tokens.refreshToken != signup.refreshToken)
        #expect(try jwtClaims(tokens.idToken)["sub"] == jwtClaims(signup.idToken)["sub"])
        #expect(tokens.scope == "openid profile email offline_access")
    }

    @Test func aRotatedTokenReplayedRevokesTheFamily() async throws {
        let harness = try await TenantHarness()
        let (replay, successor) = try await harness.router { http in
            let first = try #require(try await harness.signUp(http).refreshToken)
            let second = try #require(try await harness.refresh(http, first).decode(TokenResponse.self).refreshToken)
            let replay = try await harness.refresh(http, first)
            return (replay, try await harness.refresh(http, second))
        }
        // Auth0 answers a refused refresh token 403, not 400.
        expectRefused(replay, "invalid_grant", status: .forbidden, description: "Unknown or invalid refresh token.")
        expectRefused(successor, "invalid_grant", status: .forbidden)
    }

    @Test func exchangeForMyAccount() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            let signup = try await harness.signUp(http)
            return try await harness.refresh(
                http, try #require(signup.refreshToken), audience: "https://localhost/me/",
                scope: "openid create:me:authentication_methods")
        }
        #expect(result.status == .ok, "\(result.text)")
        let tokens = try result.decode(TokenResponse.self)
        #expect(tokens.scope == "openid create:me:authentication_methods")
        let access = try jwtClaims(tokens.accessToken)
        #expect(access["aud"]?.arrayValue?.first == .string("https://localhost/me/"))
    }

    @Test func aScopeBeyondTheGrantIsDenied() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            let signup = try await harness.signUp(http, scope: "openid offline_access")
            return try await harness.refresh(http, try #require(signup.refreshToken), scope: "openid email")
        }
        expectRefused(result, "access_denied", status: .forbidden)
    }

    @Test func anExpiredRefreshTokenIsRefused() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            let signup = try await harness.signUp(http)
            harness.clock.advance(by: 31 * 86_400)
            return try await harness.refresh(http, try #require(signup.refreshToken))
        }
        #expect(result.errorCode == "invalid_grant")
    }

    @Test func revokeAnswersEmptyAndKillsTheToken() async throws {
        let harness = try await TenantHarness()
        let (revoked, again, refreshed) = try await harness.router { http in
            let token = try #require(try await harness.signUp(http).refreshToken)
            let body = RevokeRequest(token: token, clientID: harness.clientID)
            let revoked = try await http.send(.post, "/oauth/revoke", json: body)
            let again = try await http.send(.post, "/oauth/revoke", json: body)
            return (revoked, again, try await harness.refresh(http, token))
        }
        #expect(revoked.status == .ok)
        #expect(revoked.body.isEmpty)
        #expect(again.status == .ok)
        #expect(refreshed.errorCode == "invalid_grant")
    }

    @Test func revokeRefusesAnUnknownClient() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(.post, "/oauth/revoke", raw: #"{"token":"x","client_id":"nobody"}"#)
        }
        expectRefused(result, "invalid_client", status: .unauthorized)
    }

    @Test func anUnsupportedGrantIsRefused() async throws {
        let harness = try await TenantHarness()
        let (unsupported, missing) = try await harness.router { http in
            (
                try await http.send(
                    .post, "/oauth/token",
                    // `password` is a grant of the tenant since issue 41: the device grant is one it lacks.
                    raw:
                        #"{"grant_type":"urn:ietf:params:oauth:grant-type:device_code","client_id":"\#(harness.clientID)"}"#
                ),
                try await http.send(
                    .post, "/oauth/token", raw: #"{"grant_type":"refresh_token","client_id":"\#(harness.clientID)"}"#)
            )
        }
        #expect(unsupported.errorCode == "unsupported_grant_type")
        #expect(missing.errorCode == "invalid_request")
    }
}
