import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing

/// A virtual user logging in with a one-time code (issue 41): a local tenant with its test outbox
/// on loopback, the real libcurl client; the code read through ``Tenant/outbox(to:)``, the one way
/// the CLI's `--code-from-outbox` reads it too.
@Suite struct PasswordlessLoginTests {
    private func withTenant(outbox: Bool = true, _ body: @Sendable (Tenant) async throws -> Void) async throws {
        var configuration = TenantConfiguration()
        configuration.outbox.servesTestRoute = outbox
        let tenant = try await PasskeyTenant(configuration: configuration, database: ":memory:")
        try await tenant.serving { endpoint in
            try await body(try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL))
        }
    }

    @Test func aVirtualUserLogsInWithACodeByEmailAndBySMS() async throws {
        try await withTenant { tenant in
            let user = VirtualUser(tenant: tenant, device: VirtualDevice(store: InMemoryCredentialStore()))
            try await user.startPasswordless(email: "ada@example.com")
            let messages = try await tenant.outbox(to: "ADA@example.com")
            #expect(messages.count == 1 && messages[0].kind == "passwordless_code" && messages[0].channel == "email")
            let login = try await user.logIn(
                email: "ada@example.com", code: try await tenant.latestCode(sentTo: "ada@example.com"))
            #expect(login.user.sub.hasPrefix("email|") && login.user.email == "ada@example.com")
            #expect(try await user.credentialsManager.credentials().accessToken == login.credentials.accessToken)

            try await user.startPasswordless(phoneNumber: "+15555550100")
            let sms = try await user.logIn(
                phoneNumber: "+15555550100", code: try await tenant.latestCode(sentTo: "+15555550100"))
            #expect(sms.user.sub.hasPrefix("sms|"))

            await #expect(throws: PasskeyFlowError.self) {
                try await user.logIn(email: "ada@example.com", code: "000000")
            }
        }
    }

    @Test func aTenantWithoutTheFlagHasNoOutbox() async throws {
        try await withTenant(outbox: false) { tenant in
            do {
                _ = try await tenant.outbox(to: "ada@example.com")
                Issue.record("an outbox answered")
            } catch let error as PasskeyFlowError {
                guard case .user(let refusal) = error else { throw error }
                #expect(refusal.code == .noOutbox)
            }
        }
    }
}
