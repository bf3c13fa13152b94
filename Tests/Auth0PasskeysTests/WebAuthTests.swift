import FoundationEssentials
import Hummingbird
import Synchronization
import TestSupport
import Testing
import WebAuthn

@testable import Auth0Passkeys

/// Web Auth's client side (spec §14): the `/authorize` URL, the callback checks, the code
/// exchange and the ID token validation, against a real loopback server that plays the tenant's
/// token endpoint and JWKS, and a user agent that plays the browser by answering with the
/// redirect the test chooses.
@Suite struct WebAuthTests {
    typealias Claims = IDTokenValidatorTests.Claims

    /// A user agent that, instead of showing the page, redirects as `answer` says from the
    /// `/authorize` URL's parameters.
    /// A value shared between the test and the server's or browser's closures.
    final class Shared<Value: Sendable>: Sendable {
        private let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        func withLock<Result>(_ body: (inout Value) -> Result) -> Result { value.withLock { body(&$0) } }
    }

    struct ScriptedBrowser: WebAuthUserAgent {
        let opened = Shared<[String]>([])
        let answer: @Sendable ([String: String], String) -> String

        func open(_ url: String, awaitingRedirectTo redirectURL: String) async throws -> String {
            opened.withLock { $0.append(url) }
            return answer(WebAuthTests.query(url), redirectURL)
        }
    }

    /// The query parameters of a URL, percent-decoded.
    static func query(_ url: String) -> [String: String] {
        WebAuthCallback(url, redirectURL: String(url.prefix { $0 != "?" }))?.parameters ?? [:]
    }

    static let redirectURL = "http://127.0.0.1:53117/callback"

    /// RFC 7636 Appendix B, and the verifier and challenge of spec §14.1.
    @Test func proofKeyChallengeIsS256OfTheVerifier() {
        #expect(
            ProofKey(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").challenge
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(
            ProofKey(verifier: "CsRC8DIU_OGK3QTfW0W9ymwzTSt7EYc-6DpbRZwFNC8").challenge
                == "z3cuvywc8W4YDiBEfGSpLffZUjB5mxuxw29Ucm6M5EE")
        let fresh = ProofKey()
        #expect(fresh.verifier.count == 43 && fresh.verifier != ProofKey().verifier)
        #expect(!"\(fresh)".contains(fresh.verifier))
    }

    @Test func authorizeURLCarriesWhatAuth0SwiftSends() throws {
        let auth = try Authentication(clientId: "k3S9pQ2vXc7LmN0aB1dE4fG6hJ8", baseURL: "https://login.example.com")
        let authorization = try WebAuth(authentication: auth).redirectURL(Self.redirectURL).scope("profile email")
            .audience("https://api.example.com/").organization("org_Zq81").maxAge(300)
            .parameters(["screen_hint": "signup", "prompt": "login"]).authorization()
        #expect(authorization.url.hasPrefix("https://login.example.com/authorize?response_type=code&client_id="))
        let query = Self.query(authorization.url)
        #expect(query["client_id"] == "k3S9pQ2vXc7LmN0aB1dE4fG6hJ8")
        #expect(query["redirect_uri"] == Self.redirectURL)
        #expect(query["scope"] == "openid profile email")
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["code_challenge"] == authorization.proofKey.challenge)
        #expect(query["state"]?.count == 43 && query["nonce"]?.count == 43 && query["state"] != query["nonce"])
        #expect(query["audience"] == "https://api.example.com/" && query["organization"] == "org_Zq81")
        #expect(query["max_age"] == "300" && query["screen_hint"] == "signup" && query["prompt"] == "login")
        #expect(query["auth0Client"] != nil)
        // Percent-encoded: the redirect's ':' and '/' do not appear raw in the query.
        #expect(authorization.url.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A53117%2Fcallback"))
        // The secrets never print.
        #expect(!"\(authorization)".contains(authorization.proofKey.verifier))
        #expect(!"\(authorization)".contains(query["state"] ?? "-"))

        // parameters(_:) override the SDK's own, and openid is forced back into the scope.
        let overridden = try WebAuth(authentication: auth).redirectURL(Self.redirectURL)
            .parameters(["scope": "email", "state": "mine"]).authorization()
        #expect(Self.query(overridden.url)["scope"] == "openid email")
        #expect(Self.query(overridden.url)["state"] == "mine" && overridden.state == "mine")
    }

    @Test func invitationLinksAndMissingRedirectAreRefusedBeforeAnythingIsSent() throws {
        let auth = try Authentication(clientId: "c", baseURL: "https://login.example.com")
        let invited = try WebAuth(authentication: auth).redirectURL(Self.redirectURL)
            .invitationURL("https://app.example.com/login?invitation=inv_1&organization=org_2&organization_name=acme")
            .authorization()
        #expect(Self.query(invited.url)["invitation"] == "inv_1" && Self.query(invited.url)["organization"] == "org_2")
        #expect(
            Self.code {
                _ = try WebAuth(authentication: auth).redirectURL(Self.redirectURL)
                    .invitationURL("https://app.example.com/login?invitation=inv_1").authorization()
            } == .invalidInvitationURL)
        #expect(Self.code { _ = try WebAuth(authentication: auth).authorization() } == .invalidConfiguration)
    }

    /// The canned tenant: JWKS, and a token endpoint that checks the verifier against the
    /// challenge the user agent saw, then answers an ID token with `claims`.
    struct CannedTenant {
        let server = CannedServer()
        let exchanges = Shared<[[String: JSONValue]]>([])
        let challenges = Shared<[String: String]>([:])

        init(key: IDTokenValidatorTests.TestKey, claims: @escaping @Sendable ([String: String]) -> Claims) throws {
            let jwks = try IDTokenValidatorTests.jwks([key])
            server.route(.get, "/.well-known/jwks.json") { _, _ in CannedServer.json(.ok, jwks) }
            let exchanges = exchanges
            let challenges = challenges
            server.route(.post, "/oauth/token") { _, request in
                let body = try await request.body.collect(upTo: 65536)
                let members = try JSONDecoder().decode(
                    [String: JSONValue].self, from: Data(Array(body.readableBytesView)))
                exchanges.withLock { $0.append(members) }
                let code = members["code"]?.stringValue ?? ""
                guard let entry = challenges.withLock({ $0[code] }) else {
                    return CannedServer.json(
                        .forbidden, #"{"error":"invalid_grant","error_description":"Invalid authorization code"}"#)
                }
                let verifier = members["code_verifier"]?.stringValue ?? ""
                guard Base64URL.encode(SHA256Digest.hash(Array(verifier.utf8))) == entry else {
                    return CannedServer.json(
                        .forbidden, #"{"error":"invalid_grant","error_description":"Failed to verify code verifier"}"#)
                }
                let token = try await key.sign(claims([:]))
                return CannedServer.json(
                    .ok,
                    #"{"access_token":"AT","token_type":"Bearer","expires_in":86400,"scope":"openid","id_token":"\#(token)"}"#
                )
            }
        }

        /// A browser that redirects with a code for the challenge it saw, and the state and
        /// nonce `change` leaves.
        func browser(_ change: @escaping @Sendable (inout [String: String]) -> Void = { _ in }) -> ScriptedBrowser {
            let challenges = challenges
            return ScriptedBrowser { query, redirect in
                let code = Base64URL.encode(SecureRandom.bytes(32))
                challenges.withLock { $0[code] = query["code_challenge"] }
                var answer = ["code": code, "state": query["state"] ?? ""]
                change(&answer)
                let items = answer.sorted { $0.key < $1.key }.map { "\($0.key)=\(PercentEncoding.encode($0.value))" }
                return redirect + "?" + items.joined(separator: "&")
            }
        }
    }

    @Test func loginExchangesTheCodeWithTheVerifierAndValidatesTheNonce() async throws {
        let key = try await IDTokenValidatorTests.TestKey(kid: "k1", pem: FixtureSigningKey.pem)
        let nonceSeen = Shared<String?>(nil)
        let tenant = try CannedTenant(key: key) { _ in
            var claims = Claims()
            claims.iss = IDTokenValidatorTests.issuer
            claims.aud = ["client"]
            claims.nonce = nonceSeen.withLock { $0 }
            claims.exp = Int(Date().timeIntervalSince1970) + 3600
            claims.iat = Int(Date().timeIntervalSince1970)
            return claims
        }
        let browser = tenant.browser()
        let exchanges = tenant.exchanges
        try await tenant.server.run { baseURL in
            let auth = try Authentication(clientId: "client", baseURL: baseURL)
            let webAuth = WebAuth(authentication: auth).redirectURL(Self.redirectURL)
                .issuer(IDTokenValidatorTests.issuer)
            let recording = ScriptedBrowser { query, redirect in
                nonceSeen.withLock { $0 = query["nonce"] }
                return browser.answer(query, redirect)
            }
            let credentials = try await webAuth.start(using: recording)
            #expect(credentials.accessToken == "AT")
            let exchange = try #require(exchanges.withLock { $0.last })
            #expect(
                Set(exchange.keys) == ["client_id", "grant_type", "code", "code_verifier", "redirect_uri"])
            #expect(exchange["grant_type"]?.stringValue == "authorization_code")
            #expect(exchange["redirect_uri"]?.stringValue == Self.redirectURL)

            // The tenant's token carries another login's nonce: refused after the exchange.
            let replayedNonce = ScriptedBrowser { query, redirect in
                nonceSeen.withLock { $0 = "another-login" }
                return browser.answer(query, redirect)
            }
            let refusal = await Self.code { _ = try await webAuth.start(using: replayedNonce) }
            #expect(refusal == .idTokenValidationFailed)
        }
    }

    @Test func callbackRefusals() async throws {
        let key = try await IDTokenValidatorTests.TestKey(kid: "k1", pem: FixtureSigningKey.pem)
        let tenant = try CannedTenant(key: key) { _ in Claims() }
        let forged = tenant.browser { $0["state"] = "forged" }
        let stateless = tenant.browser { $0["state"] = nil }
        let deniedBrowser = tenant.browser {
            $0["code"] = nil
            $0["error"] = "access_denied"
            $0["error_description"] = "The user said no"
        }
        let codeless = tenant.browser { $0["code"] = nil }
        let unknownCode = tenant.browser { $0["code"] = "unknown" }
        let hits = tenant.server.hits
        try await tenant.server.run { baseURL in
            let auth = try Authentication(clientId: "client", baseURL: baseURL)
            let webAuth = WebAuth(authentication: auth).redirectURL(Self.redirectURL)
            func refusal(_ browser: ScriptedBrowser) async -> WebAuthError.Code? {
                await Self.code { _ = try await webAuth.start(using: browser) }
            }
            // A redirect whose state is not this login's: a forged callback (RFC 6749 §10.12).
            #expect(await refusal(forged) == .invalidCallback)
            #expect(await refusal(stateless) == .invalidCallback)
            // Somewhere else than the redirect URL.
            #expect(
                await refusal(ScriptedBrowser { query, _ in "http://127.0.0.1:1/elsewhere?state=\(query["state"]!)" })
                    == .invalidCallback)
            // An error redirect (RFC 6749 §4.1.2.1): the tenant's words, as an AuthenticationError.
            let denied = await Self.error { _ = try await webAuth.start(using: deniedBrowser) }
            #expect(denied?.code == .authenticationFailed)
            #expect(denied?.authenticationError?.code.rawValue == "access_denied")
            #expect(denied?.reason.contains("The user said no") == true)
            #expect(await refusal(codeless) == .noAuthorizationCode)
            // A code the tenant never issued.
            #expect(await refusal(unknownCode) == .authenticationFailed)
            // The user agent gave up, or the login was cancelled.
            struct Closed: Error {}
            #expect(await refusal(ScriptedBrowser { _, _ in "" }) == .invalidCallback)
            let failing = FailingBrowser(error: Closed())
            #expect(await Self.code { _ = try await webAuth.start(using: failing) } == .userAgentFailed)
            let cancelled = FailingBrowser(error: CancellationError())
            #expect(await Self.code { _ = try await webAuth.start(using: cancelled) } == .userCancelled)
            // No exchange was attempted for any of the redirects refused before it.
            #expect(hits["/oauth/token"] == 1)
        }
    }

    struct FailingBrowser: WebAuthUserAgent {
        let error: any Error
        func open(_ url: String, awaitingRedirectTo redirectURL: String) async throws -> String { throw error }
    }

    @Test func clearSessionOpensLogoutWithReturnToAndClientID() async throws {
        let auth = try Authentication(clientId: "client id", baseURL: "https://login.example.com")
        let browser = ScriptedBrowser { _, redirect in redirect }
        try await WebAuth(authentication: auth).redirectURL(Self.redirectURL).clearSession(
            federated: true, using: browser)
        let opened = browser.opened.withLock { $0 }
        #expect(
            opened == [
                "https://login.example.com/v2/logout?returnTo=http%3A%2F%2F127.0.0.1%3A53117%2Fcallback"
                    + "&client_id=client%20id&federated"
            ])
    }

    static func code(_ body: () throws -> Void) -> WebAuthError.Code? {
        do {
            try body()
            return nil
        } catch let error as WebAuthError {
            return error.code
        } catch {
            return nil
        }
    }

    static func code(_ body: () async throws -> Void) async -> WebAuthError.Code? {
        await error(body)?.code
    }

    static func error(_ body: () async throws -> Void) async -> WebAuthError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? WebAuthError
        }
    }
}
