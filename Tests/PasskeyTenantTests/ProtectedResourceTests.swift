import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// `GET /userinfo` and the sample protected API `GET /api/events` (auth0-passkey-api.md §6.3;
/// RFC 6750).
@Suite struct ProtectedResourceTests {
    @Test func userinfoReleasesClaimsByScope() async throws {
        let harness = try await TenantHarness()
        let (full, narrow) = try await harness.router { http in
            let signup = try await harness.signUp(http)
            let login = try await harness.logIn(http, scope: "openid")
            return (
                try await http.send(
                    .get, "/userinfo", contentType: "application/json", bearer: signup.accessToken.text),
                try await http.send(.get, "/userinfo", bearer: login.accessToken.text)
            )
        }
        #expect(full.status == .ok)
        #expect(full.json["sub"]?.stringValue?.hasPrefix("auth0|") == true)
        #expect(full.json["email"] == .string("ada@example.com"))
        #expect(full.json["email_verified"] == .bool(false))
        #expect(full.json["name"] == .string("Ada"))
        #expect(narrow.json["sub"] == full.json["sub"])
        #expect(narrow.json["email"] == nil)
    }

    @Test func userinfoWithoutATokenIsUnauthorized() async throws {
        let harness = try await TenantHarness()
        let (missing, garbage, expired) = try await harness.router { http in
            let token = try await harness.signUp(http).accessToken.text
            let missing = try await http.send(.get, "/userinfo")
            let garbage = try await http.send(.get, "/userinfo", bearer: "not.a.jwt")
            harness.clock.advance(by: 86_401)
            return (missing, garbage, try await http.send(.get, "/userinfo", bearer: token))
        }
        for result in [missing, garbage, expired] {
            expectRefused(result, "invalid_token", status: .unauthorized)
            #expect(result.headers[.wwwAuthenticate]?.hasPrefix("Bearer realm=\"localhost\"") == true)
        }
    }

    @Test func theAPINeedsItsAudienceAndScope() async throws {
        let harness = try await TenantHarness()
        let (ok, noScope, otherAudience, none) = try await harness.router { http in
            let api = "https://localhost/api/"
            let good = try await harness.signUp(http, scope: "openid read:events", audience: api)
            let narrow = try await harness.logIn(http, scope: "openid", audience: api)
            let userinfo = try await harness.logIn(http, scope: "openid read:events")
            return (
                try await http.send(.get, "/api/events", bearer: good.accessToken.text),
                try await http.send(.get, "/api/events", bearer: narrow.accessToken.text),
                try await http.send(.get, "/api/events", bearer: userinfo.accessToken.text),
                try await http.send(.get, "/api/events")
            )
        }
        #expect(ok.status == .ok)
        #expect(ok.json["events"]?.arrayValue?.isEmpty == false)
        expectRefused(noScope, "insufficient_scope", status: .forbidden)
        #expect(noScope.headers[.wwwAuthenticate]?.contains(#"error="insufficient_scope""#) == true)
        #expect(otherAudience.status == .unauthorized)
        #expect(none.status == .unauthorized)
        #expect(none.headers[.wwwAuthenticate] != nil)
    }

    @Test func aTokenSignedByAnotherTenantIsRefused() async throws {
        let harness = try await TenantHarness()
        let other = try await TenantHarness(signingKey: nil)
        let token = try await other.router { http in try await other.signUp(http).accessToken.text }
        let result = try await harness.router { http in try await http.send(.get, "/userinfo", bearer: token) }
        #expect(result.status == .unauthorized)
    }
}
