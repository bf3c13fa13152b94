import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// Secrets never print: not in `description`, not in `dump`, not in the tenant's logs (STYLE §5).
@Suite struct SecretRedactionTests {
    /// Not even a fingerprint: a hash prefix of a password is an offline guess check.
    @Test func aSecretShowsNothingOfItsValue() {
        let secret = Secret("super-secret-refresh-token")
        #expect(!"\(secret)".contains("super"))
        #expect(!String(reflecting: secret).contains("super"))
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("super"))
        #expect("\(secret)" == "<redacted>" && String(reflecting: secret) == "<redacted>")
    }

    /// A tenant logging at `trace` into memory.
    static func tracedHarness() async throws -> (TenantHarness, InMemoryLogHandler) {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "tenant-test", factory: { _ in logs })
        logger.logLevel = .trace
        let clock = TestClock()
        let tenant = try await TestTenant.open(clock: clock.tenantClock, logger: logger)
        return (TenantHarness(tenant: tenant, clock: clock, device: TenantHarness.device()), logs)
    }

    @Test func aTracedSignupAndLoginLogNoSecret() async throws {
        let (harness, logs) = try await Self.tracedHarness()
        let secrets = try await harness.router { http in
            let (session, response) = try await harness.signupResponse(http)
            let signup = try await harness.grant(
                http, session: session, response: response
            ).decode(TokenResponse.self)
            let login = try await harness.logIn(http)
            _ = try await http.send(.get, "/userinfo", bearer: login.accessToken.text)
            _ = try await harness.refresh(http, try #require(login.refreshToken))
            return [session, signup.accessToken, login.accessToken, try #require(login.refreshToken)]
                + [signup.idToken, login.idToken].compactMap { $0 }
        }
        let entries = logs.entries
        #expect(entries.count >= 5)
        let text = entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        for secret in secrets {
            #expect(!text.contains(secret.text))
        }
    }

    @Test func aTracedWebAuthFlowLogsNoSecret() async throws {
        let (harness, logs) = try await Self.tracedHarness()
        let flow = WebAuthFlow(harness)
        let secrets = try await harness.router { http in
            let page = try flow.page(try await flow.authorize(http))
            let (code, session) = try flow.codeAndSession(try await flow.signUp(http, page))
            let tokens = try await flow.exchange(http, code: code).decode(TokenResponse.self)
            _ = try await flow.exchange(http, code: code)
            _ = try await http.send(
                .get, "/v2/logout", contentType: nil, headers: [.cookie: "passkey_session=\(session)"])
            return [page.transaction, code, session, flow.verifier, tokens.accessToken.text]
                + [tokens.refreshToken, tokens.idToken].compactMap { $0?.text }
        }
        let entries = logs.entries
        #expect(entries.count >= 5)
        let text = entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        for secret in secrets {
            #expect(!text.contains(secret))
        }
    }
}
