import Foundation
import HummingbirdTesting
import PasskeyTenant
import Testing
import WebAuthn

/// The `sid` claim (OpenID Connect Front-Channel Logout 1.0 §3, Back-Channel Logout 1.0 §2.1; as
/// Auth0 sets it): one opaque ID per login session, on every ID token issued from it — its codes'
/// and their refreshes' — and another for another session.
@Suite struct SessionIDTests {
    /// The `sid` of an ID token.
    static func sid(_ tokens: TokenResponse) throws -> String {
        guard case .string(let sid) = try jwtClaims(tokens.idToken)["sid"] else {
            Issue.record("no sid in the ID token")
            return ""
        }
        return sid
    }

    @Test func codesAndRefreshesOfOneSessionShareItsIDAndAnotherSessionHasItsOwn() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (first, second, refreshed, other, cookie) = try await harness.router { http in
            let (code, session) = try await flow.signUpForCode(http)
            let first = try await flow.exchange(http, code: code).decode(TokenResponse.self)
            let again = try flow.code(try await flow.authorize(http, session: session))
            let second = try await flow.exchange(http, code: again).decode(TokenResponse.self)
            let refreshed = try await harness.refresh(http, try #require(first.refreshToken))
                .decode(TokenResponse.self)
            // A new ceremony on the page is a new session, though the same user's.
            let (otherCode, _) = try await flow.logInForCode(http)
            let other = try await flow.exchange(http, code: otherCode).decode(TokenResponse.self)
            return (first, second, refreshed, other, session)
        }
        let sid = try Self.sid(first)
        #expect(sid.count == 22)
        #expect(try Self.sid(second) == sid)
        #expect(try Self.sid(refreshed) == sid)
        #expect(try Self.sid(other) != sid)
        // Opaque: neither the cookie nor its digest.
        #expect(sid != cookie)
        #expect(sid != Base64URL.encode(SHA256Digest.hash(Array(cookie.utf8))))
        #expect(try jwtClaims(first.accessToken)["sid"] == nil)
    }

    @Test func eachNativeLoginHasItsOwnIDKeptByItsRefreshes() async throws {
        let harness = try await TenantHarness()
        let (signup, refreshed, login) = try await harness.router { http in
            let signup = try await harness.signUp(http)
            let refreshed = try await harness.refresh(http, try #require(signup.refreshToken))
                .decode(TokenResponse.self)
            return (signup, refreshed, try await harness.logIn(http))
        }
        let sid = try Self.sid(signup)
        #expect(try Self.sid(refreshed) == sid)
        #expect(try Self.sid(login) != sid)
    }
}
