import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// A virtual user's own Management API calls against a local tenant on loopback (issue 41): their
/// `user_metadata`, and a second virtual user's account linked to theirs, after which the second
/// device's passkey logs the first user in, until it is unlinked.
@Suite struct VirtualUserLinkingTests {
    @Test func metadataAndLinkingThroughTheUsersOwnToken() async throws {
        let tenant = try await PasskeyTenant(configuration: TenantConfiguration(), database: ":memory:")
        try await tenant.serving { endpoint in
            let connection = try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL)
            let ada = VirtualUser(tenant: connection, device: VirtualDevice(store: InMemoryCredentialStore()))
            let bob = VirtualUser(tenant: connection, device: VirtualDevice(store: InMemoryCredentialStore()))
            let adaID = try await ada.signUp(email: "ada@example.com").user.sub
            let bobID = try await bob.signUp(email: "bob@example.com").user.sub

            #expect(try await ada.userMetadata().isEmpty)
            #expect(try await ada.updateUserMetadata(["theme": .string("dark")]) == ["theme": .string("dark")])
            #expect(
                try await ada.updateUserMetadata(["theme": .null, "plan": .string("pro")]) == ["plan": .string("pro")])

            let identities = try await ada.link(withOtherUserToken: try await bob.credentials().idToken)
            #expect(identities.map { "auth0|" + $0.userId } == [adaID, bobID])
            #expect(try await bob.logIn().user.sub == adaID)
            #expect(try await bob.userMetadata() == ["plan": .string("pro")])

            let left = try await ada.unlink(identityId: String(bobID.dropFirst("auth0|".count)), provider: "auth0")
            #expect(left.count == 1)
            #expect(try await bob.logIn().user.sub == bobID)
        }
    }
}
