import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// Virtual users of a tenant that requires DPoP (`Tenant.usesDPoP`; auth0-passkey-api.md §16),
/// against the local tenant on loopback with the real libcurl client.
@Suite struct VirtualUserDPoPTests {
    @Test func eachUserSignsWithAKeyOfItsOwnThroughEveryFlow() async throws {
        var configuration = TenantConfiguration()
        configuration.requireProofOfPossession = true
        configuration.requiresDPoPNonce = true
        let tenant = try await PasskeyTenant(configuration: configuration, database: ":memory:")
        try await tenant.serving { endpoint in
            var connection = try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL)
            let refused = VirtualUser(tenant: connection, device: VirtualDevice(store: InMemoryCredentialStore()))
            await #expect(throws: PasskeyFlowError.self) { try await refused.signUp(email: "nobody@example.com") }

            connection.usesDPoP = true
            let ada = VirtualUser(tenant: connection, device: VirtualDevice(store: InMemoryCredentialStore()))
            let bob = VirtualUser(tenant: connection, device: VirtualDevice(store: InMemoryCredentialStore()))
            let signup = try await ada.signUp(email: "ada@example.com")
            #expect(signup.credentials.tokenType == "DPoP")
            try await bob.signUp(email: "bob@example.com")
            let adaKey = try #require(ada.credentialsManager.dpop.thumbprint)
            #expect(adaKey != bob.credentialsManager.dpop.thumbprint)

            let login = try await ada.logIn()
            #expect(login.credentials.tokenType == "DPoP")
            #expect(ada.credentialsManager.dpop.thumbprint == adaKey)
            #expect(try await ada.userInfo().email == "ada@example.com")
            let events = try await ada.callAPI(
                .get, endpoint.baseURL + "/api/events", audience: tenant.configuration.apiAudience,
                scope: "read:events")
            #expect(events.status == 200, "\(String(decoding: events.body, as: UTF8.self))")
            #expect(try await ada.authenticationMethods(type: "passkey").count == 1)
            #expect(try await ada.credentialsManager.renew().tokenType == "DPoP")

            let logout = try await ada.logOut(revoke: true)
            #expect(logout.revoked)
            #expect(ada.credentialsManager.dpop.key == nil)
        }
    }
}
