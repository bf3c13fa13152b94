import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// The tenant's clone detection, acted out with what `passkey set` and `passkey clone` do: a
/// rolled-back counter and a cloned credential are refused (WebAuthn L3 §6.1.1), a changed BE is
/// refused (§6.1.3), a changed BS is accepted and recorded.
@Suite struct CloneDetectionTests {
    private func withUser(
        profile: AuthenticatorProfile,
        _ body: @Sendable (VirtualUser, InMemoryCredentialStore, [UInt8]) async throws -> Void
    ) async throws {
        let tenant = try await PasskeyTenant(configuration: TenantConfiguration(), database: ":memory:")
        try await tenant.serving { endpoint in
            let store = InMemoryCredentialStore()
            let user = VirtualUser(
                tenant: try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL),
                device: VirtualDevice(store: store, profile: profile))
            let signup = try await user.signUp(email: "ada@example.com")
            try await body(user, store, signup.credentialID)
        }
    }

    private func change(
        _ id: [UInt8], in store: InMemoryCredentialStore, signCount: UInt32? = nil, backupEligible: Bool? = nil,
        backupState: Bool? = nil
    ) async throws {
        let stored = try #require(await store.credential(id: id))
        try await store.update(
            try stored.changing(signCount: signCount, backupEligible: backupEligible, backupState: backupState))
    }

    @Test func aRolledBackCounterIsRefused() async throws {
        try await withUser(profile: .securityKey) { user, store, id in
            try await user.logIn()
            try await user.logIn()
            try await change(id, in: store, signCount: 0)
            let error = await #expect(throws: PasskeyFlowError.self) { try await user.logIn() }
            #expect(error?.underlying is AuthenticationError)
            #expect(error?.codeName == "invalid_grant", "\(String(describing: error))")
            try await change(id, in: store, signCount: 10)
            try await user.logIn()
        }
    }

    @Test func aClonedCredentialIsCaughtWhenTheCloneSignsAfterTheOriginal() async throws {
        try await withUser(profile: .securityKey) { user, store, id in
            let clone = InMemoryCredentialStore()
            let copy = try await store.copyCredential(id: id, to: clone)
            #expect(copy.signCount == (try await store.credential(id: id))?.signCount)
            try await user.logIn()
            let error = await #expect(throws: PasskeyFlowError.self) {
                try await user.logIn(on: VirtualDevice(store: clone, profile: .securityKey))
            }
            #expect(error?.underlying is AuthenticationError)
            #expect(error?.codeName == "invalid_grant")
        }
    }

    @Test func aChangedBackupEligibilityIsRefusedAndAChangedBackupStateRecorded() async throws {
        try await withUser(profile: .platform) { user, store, id in
            try await change(id, in: store, backupState: false)
            try await user.logIn()
            let methods = try await user.authenticationMethods(type: "passkey")
            #expect(methods.count == 1)
            let recorded = try #require(methods.first?.credentialBackedUp)
            #expect(recorded == false)

            try await change(id, in: store, backupEligible: false)
            let error = await #expect(throws: PasskeyFlowError.self) { try await user.logIn() }
            #expect(error?.underlying is AuthenticationError)
        }
    }
}
