import Auth0Passkeys
import Foundation
import HTTPTypes
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// The tenant as a passkey provider in the embedded mode (issue 40's contract, steps 3–5): a client
/// with an invoke URL is sent there from `/authorize`, the embedded SDK logs in at the
/// authenticate URL, and the continue URL ends in the client's authorization response. Over
/// loopback with libcurl and a ``PasskeyKit/VirtualDevice``.
@Suite struct EmbeddedModeTests {
    @Test func theWholeEmbeddedPathEndsInACodeAndTokens() async throws {
        try await EmbeddedProvider.run { provider in
            let redirect = try await provider.authorize(provider.native)
            #expect(redirect.status == 302)
            let location = try #require(redirect.header("Location"))
            #expect(
                location.hasPrefix(EmbeddedProvider.nativeInvokeURL + "?url=http%3A%2F%2Flocalhost%3A"), "\(location)")
            let url = try await provider.authenticateURL()
            #expect(url.hasPrefix(provider.baseURL + "/embedded/authenticate?request="))
            #expect(try Base64URL(string: String(url.split(separator: "=", maxSplits: 1)[1])).bytes.count == 32)

            let options = try await provider.get(url)
            #expect(options.status == 200)
            let publicKey = try #require(options.json["publicKey"]?.objectValue)
            #expect(publicKey["rpId"] == .string("localhost"))
            #expect(publicKey["allowCredentials"] == nil)
            #expect(publicKey["challenge"]?.stringValue?.count == 43)
            let assertion = try await provider.device.get(
                try JSONDecoder().decode(EmbeddedOptionsResponse.self, from: Data(options.body)).publicKey,
                rpID: "localhost")
            let answer = try await provider.complete(url, assertion)
            let continueURL = try EmbeddedProvider.redirectURL(answer)
            #expect(continueURL.hasPrefix(provider.baseURL + "/embedded/continue?request="), "\(continueURL)")

            let resumed = try await provider.get(continueURL)
            #expect(resumed.status == 302, "\(resumed.text)")
            let back = try #require(resumed.header("Location"))
            let code = try #require(try provider.flow.callbackQuery(back)["code"])
            let session = try EmbeddedProvider.sessionCookie(resumed)
            let exchanged = try await provider.flow.exchange(
                provider.http, code: code, clientID: provider.native.clientID)
            #expect(exchanged.status == .ok, "\(exchanged.text)")
            let tokens = try exchanged.decode(TokenResponse.self)
            #expect(try jwtClaims(tokens.idToken)["aud"] == .string(provider.native.clientID))
            #expect(try jwtClaims(tokens.idToken)["nonce"] == .string(provider.flow.nonce))

            // The login session spares the next /authorize the invoke URL: a code at once.
            let again = try await provider.authorize(provider.native, session: session)
            #expect(again.status == 302)
            #expect(again.header("Location")?.hasPrefix(provider.flow.redirectURI + "?code=") == true)
            // The request is over, and the continue URL is one-time.
            expectRefused(try await provider.complete(url, assertion), "invalid_request")
            #expect(try await provider.get(continueURL).status == 400)
        }
    }

    @Test func aCancelGoesBackToTheClientWithAccessDenied() async throws {
        try await EmbeddedProvider.run { provider in
            let url = try await provider.authenticateURL()
            _ = try await provider.get(url)
            let cancelled = try await provider.post(url, body: #"{"error":"access_denied"}"#)
            let redirect = try EmbeddedProvider.redirectURL(cancelled)
            let query = try provider.flow.callbackQuery(redirect)
            #expect(query["error"] == "access_denied")
            #expect(query["error_description"] == "The user cancelled the passkey login.")
            #expect(query["state"] == provider.flow.state)
            expectRefused(try await provider.get(url), "invalid_request")
        }
    }

    /// An invoke URL with a query gets `&url=`; a `form_post` client's answers are pages the
    /// continue URL renders, the cancel's too.
    @Test func aFormPostClientIsAnsweredAtTheContinueURL() async throws {
        try await EmbeddedProvider.run { provider in
            let redirect = try await provider.authorize(provider.web, ["response_mode": "form_post"])
            #expect(redirect.header("Location")?.hasPrefix(EmbeddedProvider.webInvokeURL + "&url=") == true)
            let url = try await provider.authenticateURL(provider.web, ["response_mode": "form_post"])
            let continueURL = try EmbeddedProvider.redirectURL(
                try await provider.complete(url, try await provider.assertion(url)))
            let page = try await provider.get(continueURL)
            #expect(page.status == 200)
            #expect(
                page.text.contains(#"name="code""#) && page.text.contains(#"action="http://127.0.0.1:53117/callback""#))
            _ = try EmbeddedProvider.sessionCookie(page)

            let other = try await provider.authenticateURL(provider.web, ["response_mode": "form_post"])
            let cancel = try EmbeddedProvider.redirectURL(
                try await provider.post(other, body: #"{"error":"access_denied"}"#))
            #expect(cancel.hasPrefix(provider.baseURL + "/embedded/continue?request="))
            let refusal = try await provider.get(cancel)
            #expect(refusal.text.contains(#"value="access_denied""#))
            #expect(!refusal.headers.contains { $0.value.hasPrefix("passkey_session=") })
        }
    }

    /// A user the request's organization does not let in goes back with `access_denied`, and
    /// gets no login session (auth0-passkey-api.md §17).
    @Test func aNonMemberGoesBackWithAccessDenied() async throws {
        try await EmbeddedProvider.run { provider in
            let url = try await provider.authenticateURL(provider.native, ["organization": "globex"])
            let answer = try await provider.complete(url, try await provider.assertion(url))
            let query = try provider.flow.callbackQuery(try EmbeddedProvider.redirectURL(answer))
            #expect(query["error"] == "access_denied")
            #expect(query["state"] == provider.flow.state)
            #expect(!answer.headers.contains { $0.value.hasPrefix("passkey_session=") })
            expectRefused(try await provider.get(url), "invalid_request")
        }
    }

    @Test func aStaleRequestOrContinueURLIsRefused() async throws {
        try await EmbeddedProvider.run { provider in
            let url = try await provider.authenticateURL()
            let assertion = try await provider.assertion(url)
            provider.harness.clock.advance(by: 601)
            expectRefused(try await provider.complete(url, assertion), "invalid_request")
            expectRefused(try await provider.get(url), "invalid_request")

            let fresh = try await provider.authenticateURL()
            let continueURL = try EmbeddedProvider.redirectURL(
                try await provider.complete(fresh, try await provider.assertion(fresh)))
            provider.harness.clock.advance(by: 121)
            let late = try await provider.get(continueURL)
            #expect(late.status == 400)
            #expect(late.text.contains("Nothing to continue"))
        }
    }

    /// An assertion made for another request's challenge fails, and spends this request's
    /// challenge; the other request's stays.
    @Test func anAssertionForAnotherRequestsChallengeIsRefused() async throws {
        try await EmbeddedProvider.run { provider in
            let first = try await provider.authenticateURL()
            let second = try await provider.authenticateURL()
            let forFirst = try await provider.assertion(first)
            _ = try await provider.assertion(second)
            expectRefused(try await provider.complete(second, forFirst), "invalid_grant")
            expectRefused(try await provider.complete(second, forFirst), "invalid_request")
            _ = try EmbeddedProvider.redirectURL(try await provider.complete(first, forFirst))
        }
    }

    /// A new GET replaces the pending challenge: an assertion of the older one fails.
    @Test func eachOptionsCallReplacesTheChallenge() async throws {
        try await EmbeddedProvider.run { provider in
            let url = try await provider.authenticateURL()
            let stale = try await provider.assertion(url)
            _ = try await provider.get(url)
            expectRefused(try await provider.complete(url, stale), "invalid_grant")
        }
    }

    @Test func aClientWithoutAnInvokeURLGetsTheLoginPage() async throws {
        try await EmbeddedProvider.run { provider in
            let page = try await provider.authorize(provider.plain)
            #expect(page.status == 200)
            #expect(page.text.contains("data-transaction="))
        }
    }

    /// A login page's transaction opens no embedded door, and an authenticate request no page's.
    @Test func thePagesAndTheEmbeddedSecretsAreKeptApart() async throws {
        try await EmbeddedProvider.run { provider in
            let html = try await provider.authorize(provider.plain).text
            let start = try #require(html.range(of: #"data-transaction=""#))
            let transaction = String(html[start.upperBound...].prefix { $0 != "\"" })
            expectRefused(try await provider.get("/embedded/authenticate?request=\(transaction)"), "invalid_request")
            #expect(try await provider.get("/embedded/continue?request=\(transaction)").status == 400)

            let url = try await provider.authenticateURL()
            let secret = String(url.split(separator: "=", maxSplits: 1)[1])
            let page = try await provider.flow.options(provider.http, LoginPage(transaction: secret), mode: "login")
            expectRefused(page, "invalid_request", status: .badRequest)
            #expect(try await provider.get(url).status == 200)
        }
    }
}
