import Auth0Passkeys
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// Seeding virtual users through the Management API (auth0-passkey-api.md §15) against a local
/// tenant on loopback, with the real libcurl client and the real software authenticator: no
/// signup ceremony, then a native login.
@Suite struct SeedingTests {
    /// Runs `body` with a fresh tenant served on a free port, a connection to it and its
    /// Management API.
    private func withTenant(_ body: @Sendable (PasskeyTenant, Tenant, ManagementAPI) async throws -> Void)
        async throws
    {
        let tenant = try await PasskeyTenant(configuration: TenantConfiguration(), database: ":memory:")
        try await tenant.serving { endpoint in
            let connection = try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL)
            let management = try await connection.managementAPI(
                clientID: tenant.managementClientID, clientSecret: ClientSecret(tenant.managementClientSecret.text))
            try await body(tenant, connection, management)
        }
    }

    @Test func seedThenLogIn() async throws {
        try await withTenant { _, connection, management in
            let phone = VirtualDevice(store: InMemoryCredentialStore())
            let user = VirtualUser(tenant: connection, device: phone)
            let seeded = try await user.seed(email: "ada@example.com", name: "Ada Lovelace", using: management)
            #expect(seeded.created && seeded.rpID == "localhost")
            #expect(seeded.user.email == "ada@example.com")
            #expect(seeded.method.keyId == Base64URL.encode(seeded.credentialID))
            #expect(seeded.method.userHandle == Base64URL.encode(seeded.userHandle))
            #expect(try await phone.store?.summaries(rpID: "localhost").map(\.id) == [seeded.credentialID])
            await #expect(throws: CredentialsManagerError.self) { try await user.storedUser() }

            let login = try await user.logIn()
            #expect(login.user.sub == seeded.user.userId)
            #expect(login.credentialID == seeded.credentialID)
            #expect(login.passkeyUserName == "ada@example.com")
        }
    }

    /// A user found by email gets one more passkey with the handle of the first; the device that
    /// holds one already refuses to replace it.
    @Test func seedAnExistingUserFromAnotherDevice() async throws {
        try await withTenant { _, connection, management in
            let phone = VirtualDevice(store: InMemoryCredentialStore())
            let laptop = VirtualDevice(store: InMemoryCredentialStore())
            let user = VirtualUser(tenant: connection, device: phone)
            let first = try await user.seed(email: "ada@example.com", using: management)
            let second = try await user.seed(email: "Ada@Example.com", rpID: first.rpID, on: laptop, using: management)
            #expect(!second.created && second.user.userId == first.user.userId)
            #expect(second.userHandle == first.userHandle && second.credentialID != first.credentialID)
            #expect(try await management.authenticationMethods.list(ofUser: first.user.userId).start().count == 2)
            #expect(try await user.logIn(on: laptop).user.sub == first.user.userId)
            #expect(try await user.logIn(on: phone).credentialID == first.credentialID)

            let again = await #expect(throws: PasskeyFlowError.self) {
                try await user.seed(email: "ada@example.com", using: management)
            }
            guard case .device(let refusal)? = again else {
                Issue.record("expected the device's refusal, got \(String(describing: again))")
                return
            }
            #expect(refusal.name == .invalidState)
            #expect(try await phone.store?.summaries(rpID: "localhost").count == 1)
        }
    }

    /// A passkey the Management API refuses is deleted from the device again: a clone of the
    /// phone (same seed, so the same credential for the same RP and user handle) makes the passkey
    /// the user already has, and the tenant refuses it as a duplicate (409).
    @Test func aRefusedPasskeyIsForgotten() async throws {
        try await withTenant { _, connection, management in
            let seed = try Seed(hex: String(repeating: "5eed", count: 8))
            let phone = VirtualDevice(store: InMemoryCredentialStore(), seed: seed)
            let clone = VirtualDevice(store: InMemoryCredentialStore(), seed: seed)
            let user = VirtualUser(tenant: connection, device: phone)
            let first = try await user.seed(email: "ada@example.com", using: management)
            let refused = await #expect(throws: PasskeyFlowError.self) {
                try await user.seed(email: "ada@example.com", rpID: first.rpID, on: clone, using: management)
            }
            guard case .management(let error)? = refused else {
                Issue.record("expected the Management API's refusal, got \(String(describing: refused))")
                return
            }
            #expect(error.isConflict)
            #expect(try await clone.store?.summaries(rpID: "localhost").isEmpty == true)
            #expect(try await phone.store?.summaries(rpID: "localhost").map(\.id) == [first.credentialID])
        }
    }
}
