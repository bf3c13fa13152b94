import Auth0Passkeys
import Foundation
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// Every way an upstream login fails ends at the application with `error` and a clear
/// `error_description` (or in a 400 page when no application request can be found), never in a
/// 5xx, and makes no user at A.
@Suite(.temporaryDirectory) struct UpstreamRefusalTests {
    /// Expects the application's error redirect with `error` and a description containing `text`,
    /// and no user at A.
    private func expectRefusal(
        _ pair: UpstreamPair, _ response: HTTPResponse, error: String = "access_denied", containing text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let query = try pair.appQuery(response)
        #expect(query["error"] == error, sourceLocation: sourceLocation)
        #expect(query["state"] == UpstreamPair.state, sourceLocation: sourceLocation)
        #expect(query["error_description"]?.contains(text) == true, "\(query)", sourceLocation: sourceLocation)
        #expect(query["code"] == nil, sourceLocation: sourceLocation)
        #expect(try await pair.aUsers().isEmpty, sourceLocation: sourceLocation)
    }

    @Test func theUpstreamsErrorGoesToTheApplication() async throws {
        try await UpstreamPair.run { pair in
            // B refuses itself: prompt=none with no session at B is login_required.
            let toB = try #require(try await pair.authorize().header("Location"))
            let refusal = try await pair.browser.get(toB + "&prompt=none")
            let back = try #require(refusal.header("Location"))
            #expect(back.contains("error=login_required"))
            try await expectRefusal(
                pair, try await pair.browser.get(back), containing: "idp refused the login (login_required)")

            let state = try #require(
                try await pair.authorize().header("Location")?.split(separator: "&").first { $0.hasPrefix("state=") })
            try await expectRefusal(
                pair,
                try await pair.browser.get(
                    pair.aURL + "/login/callback?error=access_denied&error_description=User%20cancelled&\(state)"),
                containing: "(access_denied): User cancelled")
        }
    }

    @Test func aReplayedUnknownOrMalformedStateGetsAPageAndNeverA5xx() async throws {
        try await UpstreamPair.run { pair in
            let toB = try #require(try await pair.authorize().header("Location"))
            let callback = try await pair.logInAtB(toB)
            #expect(try pair.appQuery(try await pair.browser.get(callback))["code"] != nil)
            let replayed = try await pair.browser.get(callback)
            #expect(replayed.status == 400)
            #expect(String(decoding: replayed.body, as: UTF8.self).contains("unknown, expired or used"))

            for query in [
                "", "?code=abc", "?state=garbage&code=abc", "?state=a&state=b&code=c",
                "?state=" + String(repeating: "x", count: 9000), "?%ff%fe=%00&state=%zz",
            ] {
                let response = try await pair.browser.get(pair.aURL + "/login/callback" + query)
                #expect(response.status == 400, "\(query.prefix(40))")
            }
            // The form_post variant: the form body, limited alike.
            for body in ["state=garbage&code=abc", "state=" + String(repeating: "x", count: 9000)] {
                let response = try await CurlTransport(environment: [:]).send(
                    HTTPRequest(
                        method: .post, url: pair.aURL + "/login/callback",
                        headers: [(name: "Content-Type", value: "application/x-www-form-urlencoded")],
                        body: Array(body.utf8)))
                #expect(response.status == 400, "\(body.prefix(40))")
            }
        }
    }

    @Test func aCallbackWithoutTheBrowsersCookieIsRefused() async throws {
        try await UpstreamPair.run { pair in
            let toB = try #require(try await pair.authorize().header("Location"))
            let callback = try await pair.logInAtB(toB)
            await pair.browser.clearCookies(at: pair.aURL)
            try await expectRefusal(
                pair, try await pair.browser.get(callback), containing: "cookie is missing or differs")
        }
    }

    @Test func aMissingCodeIsRefused() async throws {
        try await UpstreamPair.run { pair in
            let state = try #require(
                try await pair.authorize().header("Location")?.split(separator: "&").first { $0.hasPrefix("state=") })
            try await expectRefusal(
                pair, try await pair.browser.get(pair.aURL + "/login/callback?\(state)"),
                containing: "neither one code nor an error")
        }
    }

    @Test func aRefusedCodeExchangeIsRefused() async throws {
        try await UpstreamPair.run(connection: { connection, _ in connection.clientSecret = Secret("wrong-secret") }) {
            pair in
            try await expectRefusal(
                pair, try await pair.logIn(), containing: "refused the code exchange: invalid_client")
        }
    }

    @Test func anIDTokenOfAnotherIssuerIsRefused() async throws {
        try await UpstreamPair.run(connection: { connection, bURL in
            connection.discoveryURL = bURL + "/.well-known/openid-configuration"
            connection.issuer = bURL.replacingOccurrences(of: "localhost", with: "127.0.0.1") + "/"
        }) { pair in
            try await expectRefusal(pair, try await pair.logIn(), containing: "ID token is refused: The ID token's iss")
        }
    }

    @Test func anIDTokenWithAnotherNonceIsRefused() async throws {
        try await UpstreamPair.run { pair in
            // The nonce sent to B is changed on the way (a token injection): B's token carries the changed one.
            let toB = try #require(try await pair.authorize().header("Location"))
            let nonce = try #require(toB.split(separator: "&").first { $0.hasPrefix("nonce=") })
            let callback = try await pair.logInAtB(toB.replacingOccurrences(of: nonce, with: "nonce=injected"))
            try await expectRefusal(pair, try await pair.browser.get(callback), containing: "nonce")
        }
    }

    @Test func anExpiredIDTokenIsRefused() async throws {
        // A's clock runs 11 hours ahead: B's ID tokens (10 hours) have expired by A's.
        let ahead = TenantClock { Date().addingTimeInterval(11 * 3600) }
        try await UpstreamPair.run(aClock: ahead) { pair in
            try await expectRefusal(pair, try await pair.logIn(), containing: "exp has passed")
        }
    }

    @Test func anIDTokenSignedByAKeyNotInTheIssuersKeySetIsRefused() async throws {
        // Another B, with a key of its own, publishes the key set A checks B's tokens against.
        let other = try await TestTenant.open(signingKey: nil)
        try await other.serving { otherEndpoint in
            try await UpstreamPair.run(connection: { connection, _ in
                connection.jwksURI = otherEndpoint.baseURL + "/.well-known/jwks.json"
            }) { pair in
                try await expectRefusal(pair, try await pair.logIn(), containing: "ID token is refused")
            }
        }
    }

    @Test func anUnreachableIssuerIsTemporarilyUnavailable() async throws {
        let closed = try FreePort.loopback()
        try await UpstreamPair.run(connection: { connection, _ in
            connection.issuer = "https://localhost:\(closed)/"
        }) { pair in
            try await expectRefusal(
                pair, try await pair.authorize(), error: "temporarily_unavailable",
                containing: "idp is unavailable: its discovery document could not be fetched")
        }
    }
}
