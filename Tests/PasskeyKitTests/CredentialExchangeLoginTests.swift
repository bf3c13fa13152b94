import Foundation
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// A passkey moved with the Credential Exchange Format logs in where it signed up: exported
/// sealed from one store, opened and imported into another, it signs for the same account.
@Suite struct CredentialExchangeLoginTests {
    @Test func anExportedPasskeyLogsInFromTheStoreItWasImportedInto() async throws {
        let tenant = try await PasskeyTenant(configuration: TenantConfiguration(), database: ":memory:")
        try await tenant.serving { endpoint in
            let original = InMemoryCredentialStore()
            let user = VirtualUser(
                tenant: try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL),
                device: VirtualDevice(store: original))
            let signup = try await user.signUp(email: "ada@example.com")
            let (exchange, leftOut) = try await original.exportCredentialExchange()
            #expect(leftOut.isEmpty)
            let sealed = try SealedCredentialExchange.seal(exchange, passphrase: Passphrase("correct horse"))
            let other = InMemoryCredentialStore()
            let imported = try await other.importCredentialExchange(
                SealedCredentialExchange.open(sealed, passphrase: Passphrase("correct horse")), profile: .platform)
            #expect(imported.map(\.id) == [signup.credentialID])
            let login = try await user.logIn(on: VirtualDevice(store: other))
            #expect(login.credentialID == signup.credentialID)
        }
    }
}
