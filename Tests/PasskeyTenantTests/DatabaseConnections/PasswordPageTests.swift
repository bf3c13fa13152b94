import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The login page with passwords (issue 41): the password form beside the passkey buttons, a
/// password login and signup through `/u/passkey/password` that end in a code and a login session
/// as a passkey's do, and the page's refusals.
@Suite struct PasswordPageTests {
    @Test func thePageOffersAPasswordBesideThePasskeyOnlyWhenTheConnectionTakesOne() async throws {
        let withPasswords = try await TenantHarness(
            configuration: .passwords { $0.botDetection = .always })
        let without = try await TenantHarness(configuration: .passwords { $0.passwordsEnabled = false })
        let on = try await withPasswords.router { http in try await WebAuthFlow(withPasswords).authorize(http) }
        let off = try await without.router { http in try await WebAuthFlow(without).authorize(http) }
        for id in ["login", "signup", "identifier", "password", "password-login", "password-signup", "captcha"] {
            #expect(on.text.contains(#"id="\#(id)""#), "\(id)")
        }
        #expect(off.text.contains(#"id="login""#))
        #expect(!off.text.contains(#"id="password""#))
    }

    @Test func aPasswordLoginAndSignupOnThePageEndInACodeAndASession() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (signup, login, wrong) = try await harness.router { http in
            let signup = try await Self.password(
                http, flow, try flow.page(try await flow.authorize(http)), mode: "signup")
            let login = try await Self.password(
                http, flow, try flow.page(try await flow.authorize(http)), mode: "login")
            let wrong = try await Self.password(
                http, flow, try flow.page(try await flow.authorize(http)), mode: "login", password: "Wrong-Horse-9")
            return (signup, login, wrong)
        }
        _ = try flow.codeAndSession(signup)
        _ = try flow.codeAndSession(login)
        expectRefused(wrong, "invalid_grant", status: .forbidden, description: "Wrong email or password.")
    }

    @Test func thePageKeepsThePolicyAndBotDetection() async throws {
        let harness = try await TenantHarness(
            configuration: .passwords {
                $0.botDetection = .always
                $0.captchaAnswer = Secret("test-answer")
            })
        let flow = WebAuthFlow(harness)
        let (weak, missing, right) = try await harness.router { http in
            let page = try flow.page(try await flow.authorize(http))
            return (
                try await Self.password(http, flow, page, mode: "signup", password: "short", captcha: "test-answer"),
                try await Self.password(http, flow, page, mode: "signup"),
                try await Self.password(http, flow, page, mode: "signup", captcha: "test-answer")
            )
        }
        expectRefused(weak, "invalid_request", saying: "too weak")
        expectRefused(missing, "requires_verification")
        _ = try flow.codeAndSession(right)
    }

    /// `POST /u/passkey/password`.
    static func password(
        _ http: any TestClientProtocol, _ flow: WebAuthFlow, _ page: LoginPage, mode: String,
        identifier: String = "ada@example.com", password: String = TenantHarness.strongPassword,
        captcha: String? = nil
    ) async throws -> HTTPResult {
        try await http.send(
            .post, "/u/passkey/password",
            json: PagePasswordRequest(
                transaction: page.transaction, mode: mode, identifier: identifier, password: Secret(password),
                captcha: captcha.map(Secret.init)),
            headers: flow.pageHeaders(page))
    }
}
