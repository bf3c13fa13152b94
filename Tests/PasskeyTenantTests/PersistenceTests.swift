import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// A tenant reopened on the same database keeps its users, passkeys, client ID, refresh tokens
/// and signing key.
@Suite struct PersistenceTests {
    @Test func aRestartKeepsEverything() async throws {
        let directory = try TemporaryDirectory(prefix: "tenant")
        defer { directory.remove() }
        let path = directory.appending("tenant.sqlite")
        let first = try await TenantHarness(database: path)
        let signup = try await first.router { http in try await first.signUp(http) }
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let clock = TestClock()
        let second = try await PasskeyTenant(database: path, clock: clock.tenantClock)
        #expect(second.clientID == first.clientID)
        #expect(second.signingKeyID == first.tenant.signingKeyID)
        let reopened = TenantHarness(tenant: second, clock: clock, device: first.device)
        let (login, refreshed, userinfo) = try await reopened.router { http in
            (
                try await reopened.logIn(http),
                try await reopened.refresh(http, try #require(signup.refreshToken)),
                try await http.send(.get, "/userinfo", bearer: signup.accessToken.text)
            )
        }
        #expect(try jwtClaims(login.idToken)["sub"] == jwtClaims(signup.idToken)["sub"])
        #expect(refreshed.status == .ok)
        #expect(userinfo.status == .ok)
    }

    /// Web Auth's rows (migration v2) live in the file too: a login session and a refresh token's
    /// `auth_time` survive a restart.
    @Test func aRestartKeepsTheLoginSession() async throws {
        let directory = try TemporaryDirectory(prefix: "tenant")
        defer { directory.remove() }
        let path = directory.appending("tenant.sqlite")
        let first = try await TenantHarness(database: path)
        let flow = WebAuthFlow(first)
        let (session, tokens) = try await first.router { http in
            let (code, session) = try await flow.signUpForCode(http)
            return (session, try await flow.exchange(http, code: code).decode(TokenResponse.self))
        }

        let second = try await PasskeyTenant(database: path, clock: first.clock.tenantClock)
        let reopened = TenantHarness(tenant: second, clock: first.clock, device: first.device)
        let again = WebAuthFlow(reopened)
        let (skipped, refreshed) = try await reopened.router { http in
            (
                try await again.authorize(http, session: session),
                try await reopened.refresh(http, try #require(tokens.refreshToken))
            )
        }
        #expect(skipped.status == .found)
        #expect(try again.code(skipped).isEmpty == false)
        #expect(try jwtClaims(try refreshed.decode(TokenResponse.self).idToken)["auth_time"] == .number(1_800_000_000))
    }
}
