import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// Each flow of a virtual user against a local tenant served on loopback, with the real libcurl
/// client and the real software authenticator.
@Suite struct VirtualUserTests {
    /// Runs `body` with a fresh tenant on an in-memory database, served on a free port.
    private func withTenant(_ body: @Sendable (PasskeyTenant, Tenant, TenantEndpoint) async throws -> Void)
        async throws
    {
        let tenant = try await PasskeyTenant(configuration: TenantConfiguration(), database: ":memory:")
        try await tenant.serving { endpoint in
            try await body(tenant, try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL), endpoint)
        }
    }

    @Test func theWholeStory() async throws {
        try await withTenant { tenant, connection, endpoint in
            let phone = VirtualDevice(store: InMemoryCredentialStore())
            let laptop = VirtualDevice(store: InMemoryCredentialStore())
            let user = VirtualUser(tenant: connection, device: phone)

            let signup = try await user.signUp(email: "ada@example.com", name: "Ada Lovelace")
            #expect(signup.user.email == "ada@example.com")
            #expect(signup.rpID == "localhost")
            #expect(try await phone.store?.summaries(rpID: "localhost").map(\.id) == [signup.credentialID])

            let login = try await user.logIn()
            #expect(login.user.sub == signup.user.sub)
            #expect(login.credentialID == signup.credentialID)
            #expect(login.passkeyUserName == "ada@example.com")

            let enrolled = try await user.enroll(from: laptop)
            #expect(enrolled.method.relyingPartyIdentifier == "localhost")
            let fromLaptop = try await user.logIn(on: laptop)
            #expect(fromLaptop.credentialID == enrolled.credentialID)
            #expect(fromLaptop.user.sub == signup.user.sub)
            #expect(try await user.authenticationMethods(type: "passkey").count == 2)

            let events = try await user.callAPI(
                .get, endpoint.baseURL + "/api/events", audience: tenant.configuration.apiAudience,
                scope: "read:events")
            #expect(events.status == 200)
            #expect(try await user.userInfo().sub == signup.user.sub)

            let refreshToken = try #require(try await user.credentials().refreshToken)
            let logout = try await user.logOut(revoke: true)
            #expect(logout.hadSession && logout.revoked)
            await #expect(throws: AuthenticationError.self) {
                try await connection.authentication.renew(withRefreshToken: refreshToken).start()
            }
            await #expect(throws: CredentialsManagerError(.noCredentials, "")) { try await user.credentials() }
        }
    }

    @Test func aPasskeyTheTenantRefusesIsForgotten() async throws {
        try await withTenant { _, connection, _ in
            // An origin the client allows for the RP ID but the tenant does not accept.
            let device = VirtualDevice(store: InMemoryCredentialStore(), origin: try WebOrigin("http://localhost:8080"))
            let user = VirtualUser(tenant: connection, device: device)
            let error = await #expect(throws: PasskeyFlowError.self) {
                try await user.signUp(email: "refused@example.com")
            }
            guard case .authentication(let refusal)? = error else {
                Issue.record("not the tenant's refusal: \(String(describing: error))")
                return
            }
            #expect(refusal.statusCode == 400 || refusal.statusCode == 401 || refusal.statusCode == 403)
            #expect(try await device.store?.all().credentials.isEmpty == true)
            #expect(await user.credentialsManager.user == nil)
        }
    }

    @Test func aCancelledCeremonySendsNothingAndKeepsTheSession() async throws {
        try await withTenant { _, connection, _ in
            let phone = VirtualDevice(store: InMemoryCredentialStore())
            let user = VirtualUser(tenant: connection, device: phone)
            let signup = try await user.signUp(email: "grace@example.com")
            let cancelling = VirtualDevice(store: try #require(phone.store), simulation: .cancel)
            let error = await #expect(throws: PasskeyFlowError.self) { try await user.logIn(on: cancelling) }
            #expect(error?.underlying is WebAuthnClientError)
            #expect(error?.codeName == WebAuthnClientError.Name.notAllowed.rawValue)
            #expect(try await user.storedUser().sub == signup.user.sub)
        }
    }

    @Test func enrollingOnTheDeviceThatHoldsTheUsersPasskeyIsRefused() async throws {
        try await withTenant { _, connection, _ in
            let phone = VirtualDevice(store: InMemoryCredentialStore())
            let user = VirtualUser(tenant: connection, device: phone)
            try await user.signUp(email: "alan@example.com")
            let error = await #expect(throws: PasskeyFlowError.self) { try await user.enroll(from: phone) }
            #expect(error?.underlying as? VirtualUserError == VirtualUserError(.alreadyEnrolledHere, ""))
            #expect(try await phone.store?.all().credentials.count == 1)
        }
    }

    @Test func aUserWithoutADeviceCanOnlyUseItsSession() async throws {
        try await withTenant { _, connection, _ in
            let session = InMemoryCredentialsStorage()
            let signedUp = VirtualUser(
                tenant: connection, device: VirtualDevice(store: InMemoryCredentialStore()), session: session)
            let signup = try await signedUp.signUp(email: "barbara@example.com")
            let later = VirtualUser(tenant: connection, device: nil, session: session)
            #expect(try await later.storedUser().sub == signup.user.sub)
            #expect(try await later.credentials(minTTL: 0).accessToken.isEmpty == false)
            let error = await #expect(throws: PasskeyFlowError.self) { try await later.logIn() }
            #expect(error?.underlying as? VirtualUserError == VirtualUserError(.noDevice, ""))
        }
    }

    @Test func aBearerTokenNeverGoesInTheClear() async throws {
        try await withTenant { _, connection, _ in
            let user = VirtualUser(tenant: connection, device: VirtualDevice(store: InMemoryCredentialStore()))
            try await user.signUp(email: "edsger@example.com")
            let error = await #expect(throws: PasskeyFlowError.self) {
                try await user.callAPI(.get, "http://api.example.com/events")
            }
            #expect(error?.underlying as? VirtualUserError == VirtualUserError(.refusedURL, ""))
        }
    }
}
