import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import Testing
import WebAuthn

/// The login page's API (`/u/passkey/options`, `/u/passkey/verify`) driven by the software
/// authenticator from the page origin `http://localhost:8080`, its CSRF checks, and the login
/// session that spares the next `/authorize` the ceremony.
@Suite struct WebAuthPageTests {
    @Test func signupOnThePageEndsInACodeAndASession() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (options, verified) = try await harness.router { http in
            let page = try flow.page(try await flow.authorize(http))
            let options = try await flow.options(http, page, mode: "signup", identifier: "ada@example.com")
            guard case .create(let creation) = try options.decode(PageOptionsResponse.self) else {
                throw HarnessError(options)
            }
            let registration = try await harness.device.create(creation, origin: flow.origin)
            return (options, try await flow.verify(http, page, credential: PasskeyResponse(registration)))
        }
        #expect(options.status == .ok)
        #expect(options.json["mode"] == .string("create"))
        #expect(options.json["publicKey"]?.objectValue?["user"]?.objectValue?["name"] == .string("ada@example.com"))
        #expect(options.json["publicKey"]?.objectValue?["rp"]?.objectValue?["id"] == .string("localhost"))
        #expect(options.json["publicKey"]?.objectValue?["challenge"]?.stringValue?.count == 43)
        #expect(verified.status == .ok, "\(verified.text)")
        let (code, session) = try flow.codeAndSession(verified)
        #expect(try Base64URL(string: code).bytes.count == 32)
        #expect(try Base64URL(string: session).bytes.count == 32)
        let cookie = try #require(verified.setCookies.first)
        #expect(cookie == "passkey_session=\(session); HttpOnly; SameSite=Lax; Path=/; Max-Age=604800")
    }

    @Test func loginOnThePageFindsTheUserOfANativeSignup() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (native, exchanged) = try await harness.router { http in
            // The native signup's passkey is scoped to the RP ID, so the page's login finds it.
            let native = try await harness.signUp(http)
            let (code, _) = try await flow.logInForCode(http)
            return (native, try await flow.exchange(http, code: code))
        }
        #expect(exchanged.status == .ok, "\(exchanged.text)")
        let tokens = try exchanged.decode(TokenResponse.self)
        #expect(try jwtClaims(tokens.idToken)["sub"] == jwtClaims(native.idToken)["sub"])
    }

    @Test func loginOptionsAreDiscoverable() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let options = try await harness.router { http in
            try await flow.options(http, try flow.page(try await flow.authorize(http)), mode: "login")
        }
        #expect(options.status == .ok)
        #expect(options.json["mode"] == .string("get"))
        #expect(options.json["publicKey"]?.objectValue?["rpId"] == .string("localhost"))
        #expect(options.json["publicKey"]?.objectValue?["allowCredentials"] == nil)
    }

    @Test(arguments: [("signup", nil), ("signup", "not-an-email"), ("fly", nil)] as [(String, String?)])
    func badOptionsRequestsAreInvalid(mode: String, identifier: String?) async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            try await flow.options(
                http, try flow.page(try await flow.authorize(http)), mode: mode, identifier: identifier)
        }
        expectRefused(result, "invalid_request", status: .badRequest)
    }

    @Test func signupWithATakenEmailIsRefused() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            _ = try await harness.signUp(http)
            return try await flow.options(
                http, try flow.page(try await flow.authorize(http)), mode: "signup", identifier: "ada@example.com")
        }
        expectRefused(result, "invalid_request", status: .badRequest)
        #expect(result.text.contains("The user already exists."))
    }

    /// The double-submit cookie and the `Origin` check (CSRF).
    @Test(arguments: ["missing cookie", "other cookie", "foreign origin", "other host origin"])
    func aCrossSiteCallIsForbidden(attack: String) async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (options, verify) = try await harness.router { http in
            let page = try flow.page(try await flow.authorize(http))
            let other = try flow.page(try await flow.authorize(http))
            var headers = flow.pageHeaders(page)
            switch attack {
            case "missing cookie": headers[.cookie] = nil
            case "other cookie": headers[.cookie] = "passkey_tx=\(other.transaction)"
            case "foreign origin": headers[.origin] = "https://evil.example"
            default: headers[.origin] = "http://localhost:9090"
            }
            let options = try await flow.options(http, page, mode: "login", headers: headers)
            let assertion = AuthenticationResponseJSON(
                rawId: Base64URL([1]),
                response: .init(
                    clientDataJSON: Base64URL([1]), authenticatorData: Base64URL([1]), signature: Base64URL([1])))
            let verify = try await flow.verify(
                http, page, credential: PasskeyResponse(assertion), headers: headers)
            return (options, verify)
        }
        #expect(options.status == .forbidden, "\(attack)")
        #expect(options.errorCode == "access_denied")
        #expect(verify.status == .forbidden, "\(attack)")
    }

    @Test(
        arguments: ["/u/passkey/options", "/u/passkey/verify"],
        ["", "{", "[]", "null", #"{"transaction":7}"#, #"{"transaction":"x"}"#])
    func aMalformedBodyIsABadRequest(path: String, body: String) async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            let page = try flow.page(try await flow.authorize(http))
            return try await http.send(.post, path, raw: body, headers: flow.pageHeaders(page))
        }
        #expect(result.status == .badRequest, "\(path) \(body): \(result.text)")
        #expect(result.errorCode == "invalid_request")
    }

    @Test func aFormPostIsRefused() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            let page = try flow.page(try await flow.authorize(http))
            return try await http.send(
                .post, "/u/passkey/options", raw: "transaction=\(page.transaction)&mode=login",
                contentType: "application/x-www-form-urlencoded", headers: flow.pageHeaders(page))
        }
        #expect(result.status == .unsupportedMediaType)
    }

    @Test func aFailedCeremonyLeavesTheTransactionUsable() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (failed, spent, retried) = try await harness.router { http in
            _ = try await harness.signUp(http)
            let page = try flow.page(try await flow.authorize(http))
            let options = try await flow.options(http, page, mode: "login")
            guard case .get(let request) = try options.decode(PageOptionsResponse.self) else {
                throw HarnessError(options)
            }
            // Signed over another challenge: does not verify.
            var wrong = request
            wrong.challenge = Base64URL(Array(repeating: 7, count: 32))
            let assertion = try await harness.device.get(wrong, origin: flow.origin)
            let failed = try await flow.verify(http, page, credential: PasskeyResponse(assertion))
            // The challenge is spent: the right answer to it no longer counts.
            let late = try await harness.device.get(request, origin: flow.origin)
            let spent = try await flow.verify(http, page, credential: PasskeyResponse(late))
            return (failed, spent, try await flow.logIn(http, page))
        }
        expectRefused(failed, "invalid_grant", status: .badRequest)
        #expect(spent.status == .badRequest)
        #expect(retried.status == .ok, "\(retried.text)")
    }

    @Test func aTransactionIsSingleUseOnSuccess() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let again = try await harness.router { http in
            let page = try flow.page(try await flow.authorize(http))
            _ = try flow.codeAndSession(try await flow.signUp(http, page))
            return try await flow.options(http, page, mode: "login")
        }
        expectRefused(again, "invalid_request", status: .badRequest)
    }

    @Test func aTransactionExpiresAfterTenMinutes() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            let page = try flow.page(try await flow.authorize(http))
            harness.clock.advance(by: 601)
            return try await flow.options(http, page, mode: "login")
        }
        #expect(result.status == .badRequest)
    }

    /// RP ID `localhost`: a page reached as `http://127.0.0.1:8080` is served, but its origin is not
    /// accepted (the browser would refuse the RP ID; the tenant refuses the origin too).
    @Test func aPageOriginOutsideTheRPIDDoesNotVerify() async throws {
        let harness = try await TenantHarness()
        let served = WebAuthFlow(harness)
        // /authorize on 127.0.0.1 moves to localhost; the page's calls then come from 127.0.0.1.
        var custom = WebAuthFlow(harness)
        custom.host = "127.0.0.1:8080"
        let flow = custom
        let result = try await harness.router { http in
            let page = try served.page(try await served.authorize(http))
            let options = try await flow.options(http, page, mode: "signup", identifier: "ada@example.com")
            guard case .create(let creation) = try options.decode(PageOptionsResponse.self) else {
                throw HarnessError(options)
            }
            // A client that claimed the RP ID anyway: the tenant still refuses the origin.
            let registration = try await harness.device.create(creation, origin: try WebOrigin("http://localhost:8080"))
            return try await flow.verify(http, page, credential: PasskeyResponse(registration))
        }
        expectRefused(result, "invalid_grant", status: .badRequest)
        #expect(result.text.contains("origin"))
    }

    @Test(arguments: [("localhost:8080", "http://localhost:8080"), ("localhost:80", "http://localhost")])
    func theOriginHeaderMustBeThePages(host: String, origin: String) async throws {
        let harness = try await TenantHarness()
        var custom = WebAuthFlow(harness)
        custom.host = host
        let flow = custom
        let result = try await harness.router { http in
            let page = try flow.page(try await flow.authorize(http))
            return try await flow.options(http, page, mode: "login", headers: flow.pageHeaders(page, origin: origin))
        }
        #expect(result.status == .ok, "\(host) \(origin): \(result.text)")
    }

    /// Under TLS both cookies are Secure; the login session's is `SameSite=None`, as Auth0's, so
    /// that an application on another site renews silently in an iframe, while the transaction
    /// cookie of the page API's double submit stays `Lax` (`BrowserResponse.cookie`).
    @Test func underTLSTheCookiesAreSecure() async throws {
        let harness = try await TenantHarness()
        var custom = WebAuthFlow(harness)
        custom.host = "localhost"
        let flow = custom
        let (page, verified) = try await Application(router: harness.tenant.router(servesTLS: true)).test(.router) {
            http in
            let authorize = try await flow.authorize(http)
            let page = try flow.page(authorize)
            let headers = flow.pageHeaders(page, origin: "https://localhost")
            let options = try await flow.options(
                http, page, mode: "signup", identifier: "ada@example.com", headers: headers)
            guard case .create(let creation) = try options.decode(PageOptionsResponse.self) else {
                throw HarnessError(options)
            }
            let registration = try await harness.device.create(creation, origin: try WebOrigin("https://localhost"))
            return (
                authorize,
                try await flow.verify(http, page, credential: PasskeyResponse(registration), headers: headers)
            )
        }
        #expect(page.setCookies.first?.hasSuffix("; HttpOnly; SameSite=Lax; Path=/u/; Secure") == true)
        #expect(verified.status == .ok, "\(verified.text)")
        #expect(
            verified.setCookies.first?.hasSuffix("; HttpOnly; SameSite=None; Path=/; Max-Age=604800; Secure") == true)
    }

    // MARK: The login session

    @Test func aLoginSessionSkipsTheCeremony() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (skipped, none, exchanged) = try await harness.router { http in
            let (_, session) = try await flow.signUpForCode(http)
            let skipped = try await flow.authorize(http, session: session)
            let none = try await flow.authorize(http, ["prompt": "none"], session: session)
            let code = try flow.code(skipped)
            return (skipped, none, try await flow.exchange(http, code: code))
        }
        #expect(skipped.status == .found)
        #expect(try flow.callbackQuery(try #require(skipped.location))["state"] == flow.state)
        #expect(none.status == .found)
        #expect(try flow.callbackQuery(try #require(none.location))["code"] != nil)
        #expect(exchanged.status == .ok, "\(exchanged.text)")
    }

    @Test(arguments: [["prompt": "login"], ["screen_hint": "signup"]] as [[String: String?]])
    func promptLoginAndSignupShowThePageOverASession(changes: [String: String?]) async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            let (_, session) = try await flow.signUpForCode(http)
            return try await flow.authorize(http, changes, session: session)
        }
        #expect(result.status == .ok)
        #expect(result.text.contains("passkey-form"))
    }

    @Test func maxAgeDemandsARecentCeremony() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (fresh, stale, none, zero) = try await harness.router { http in
            let (_, session) = try await flow.signUpForCode(http)
            // max_age=0 is prompt=login, even in the second of the ceremony.
            let zero = try await flow.authorize(http, ["max_age": "0"], session: session)
            harness.clock.advance(by: 120)
            let fresh = try await flow.authorize(http, ["max_age": "300"], session: session)
            let stale = try await flow.authorize(http, ["max_age": "60"], session: session)
            let none = try await flow.authorize(http, ["max_age": "60", "prompt": "none"], session: session)
            return (fresh, stale, none, zero)
        }
        #expect(zero.status == .ok)
        #expect(fresh.status == .found)
        #expect(stale.status == .ok)
        #expect(none.status == .found)
        #expect(try flow.callbackQuery(try #require(none.location))["error"] == "login_required")
    }

    @Test func anUnknownOrExpiredSessionCookieShowsThePage() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (unknown, expired) = try await harness.router { http in
            let (_, session) = try await flow.signUpForCode(http)
            let unknown = try await flow.authorize(http, session: "forged")
            harness.clock.advance(by: 7 * 86_400 + 1)
            return (unknown, try await flow.authorize(http, session: session))
        }
        #expect(unknown.status == .ok)
        #expect(expired.status == .ok)
    }
}
