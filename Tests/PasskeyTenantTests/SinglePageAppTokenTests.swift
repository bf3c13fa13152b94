import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import Testing
import WebAuthn

/// A single-page app's tokens as auth0-spa-js gets them with `useRefreshTokens`: a public client
/// (`none`, PKCE) exchanging its code and refreshing from the page's origin, with refresh-token
/// rotation and reuse detection (Auth0 "Refresh Token Rotation"; OAuth 2.0 Security BCP §4.14.2).
@Suite struct SinglePageAppTokenTests {
    /// A code from the login page and its exchange from the page's origin.
    static func tokens(_ app: SinglePageApp, _ http: any TestClientProtocol) async throws -> HTTPResult {
        let (code, _) = try await app.flow.signUpForCode(http, ["client_id": app.spa.clientID])
        return try await app.exchange(http, code: code)
    }

    @Test func thePublicClientGetsARefreshTokenWithOfflineAccessAcrossOrigins() async throws {
        let app = try await SinglePageApp()
        let result = try await app.harness.router { http in try await Self.tokens(app, http) }
        #expect(result.status == .ok, "\(result.text)")
        #expect(result.json["refresh_token"]?.stringValue?.isEmpty == false)
        #expect(result.json["id_token"] != nil)
        #expect(result.headers[.accessControlAllowOrigin] == SinglePageApp.origin)
        let claims = try jwtClaims(Secret(try #require(result.json["id_token"]?.stringValue)))
        #expect(claims["aud"] == .string(app.spa.clientID))
    }

    @Test func withoutOfflineAccessThereIsNoRefreshToken() async throws {
        let app = try await SinglePageApp()
        let result = try await app.harness.router { http in
            let (code, _) = try await app.flow.signUpForCode(
                http, ["client_id": app.spa.clientID, "scope": "openid profile"])
            return try await app.exchange(http, code: code)
        }
        #expect(result.status == .ok)
        #expect(result.json["refresh_token"] == nil)
    }

    @Test func aRefreshRotatesAndTheRotatedTokenWorks() async throws {
        let app = try await SinglePageApp()
        let (first, second, third) = try await app.harness.router { http in
            let tokens = try await Self.tokens(app, http)
            let first = try await app.refresh(http, try #require(tokens.json["refresh_token"]?.stringValue))
            let second = try await app.refresh(http, try #require(first.json["refresh_token"]?.stringValue))
            return (tokens, first, second)
        }
        for result in [second, third] {
            #expect(result.status == .ok, "\(result.text)")
            #expect(result.headers[.accessControlAllowOrigin] == SinglePageApp.origin)
            #expect(result.json["access_token"] != nil)
        }
        let tokens = [first, second, third].compactMap { $0.json["refresh_token"]?.stringValue }
        #expect(Set(tokens).count == 3)
    }

    @Test func aReusedRefreshTokenRevokesTheWholeFamily() async throws {
        let app = try await SinglePageApp()
        let (reuse, successor) = try await app.harness.router { http in
            let tokens = try await Self.tokens(app, http)
            let original = try #require(tokens.json["refresh_token"]?.stringValue)
            let rotated = try await app.refresh(http, original)
            let next = try #require(rotated.json["refresh_token"]?.stringValue)
            let reuse = try await app.refresh(http, original)
            return (reuse, try await app.refresh(http, next))
        }
        for result in [reuse, successor] {
            expectRefused(result, "invalid_grant")
            #expect(result.headers[.accessControlAllowOrigin] == SinglePageApp.origin)
        }
    }

    @Test func anotherClientCannotUseTheSPAsRefreshToken() async throws {
        let app = try await SinglePageApp()
        let result = try await app.harness.router { http in
            let tokens = try await Self.tokens(app, http)
            return try await app.post(
                http, "/oauth/token",
                [
                    ("grant_type", "refresh_token"), ("client_id", app.other.clientID),
                    ("refresh_token", try #require(tokens.json["refresh_token"]?.stringValue)),
                ])
        }
        expectRefused(result, "invalid_grant")
    }

    @Test func theBrowserRevokesItsRefreshTokenWithCORS() async throws {
        let app = try await SinglePageApp()
        let (revoked, refreshed) = try await app.harness.router { http in
            let tokens = try await Self.tokens(app, http)
            let token = try #require(tokens.json["refresh_token"]?.stringValue)
            let revoked = try await app.post(
                http, "/oauth/revoke", [("client_id", app.spa.clientID), ("token", token)])
            return (revoked, try await app.refresh(http, token))
        }
        #expect(revoked.status == .ok)
        #expect(revoked.headers[.accessControlAllowOrigin] == SinglePageApp.origin)
        expectRefused(refreshed, "invalid_grant")
    }

    @Test func theSPAPresentingASecretIsRefused() async throws {
        let app = try await SinglePageApp()
        let result = try await app.harness.router { http in
            let (code, _) = try await app.flow.signUpForCode(http, ["client_id": app.spa.clientID])
            return try await app.post(
                http, "/oauth/token",
                [
                    ("grant_type", "authorization_code"), ("client_id", app.spa.clientID), ("client_secret", "guess"),
                    ("code", code), ("code_verifier", app.flow.verifier), ("redirect_uri", app.flow.redirectURI),
                ])
        }
        expectRefused(result, "invalid_client", status: .unauthorized)
        #expect(result.headers[.accessControlAllowOrigin] == SinglePageApp.origin)
    }
}
