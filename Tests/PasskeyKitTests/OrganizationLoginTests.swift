import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// Organizations end to end (auth0-passkey-api.md §14.5, §17): a local tenant on loopback with
/// organizations, the real libcurl client; the client checks `org_id` / `org_name` of every ID
/// token for the organization it asked, at login, signup and renewal.
@Suite struct OrganizationLoginTests {
    static let acme = TenantOrganization(name: "acme", signupEnabled: true)
    static let globex = TenantOrganization(name: "globex", assignMembershipOnLogin: true)

    /// Runs `body` with a tenant taking organizations, served on a free port.
    private func withTenant(_ body: @Sendable (Tenant) async throws -> Void) async throws {
        var configuration = TenantConfiguration()
        configuration.organizations = [Self.acme, Self.globex]
        configuration.organizationUsage = .allow
        let tenant = try await PasskeyTenant(configuration: configuration, database: ":memory:")
        try await tenant.serving { endpoint in
            try await body(try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL))
        }
    }

    @Test(arguments: ["acme", TenantOrganization(name: "acme").id])
    func aSignupAndLoginIntoAnOrganizationPassTheClientsChecks(organization: String) async throws {
        try await withTenant { tenant in
            var member = tenant
            member.organization = organization
            let user = VirtualUser(tenant: member, device: VirtualDevice(store: InMemoryCredentialStore()))
            let signup = try await user.signUp(email: "ada@example.com")
            let claims = try await tenant.idTokenValidator.validate(signup.credentials.idToken)
            #expect(claims.organizationID == Self.acme.id && claims.organizationName == "acme")
            let login = try await user.logIn()
            #expect(login.user.sub == signup.user.sub)
            let renewed = try await user.credentialsManager.renew()
            #expect(try await tenant.idTokenValidator.validate(renewed.idToken).organizationID == Self.acme.id)
        }
    }

    @Test func aTokenOfAnotherOrganizationIsRefused() async throws {
        try await withTenant { tenant in
            var member = tenant
            member.organization = "acme"
            let session = InMemoryCredentialsStorage()
            let user = VirtualUser(
                tenant: member, device: VirtualDevice(store: InMemoryCredentialStore()), session: session)
            let signup = try await user.signUp(email: "ada@example.com")
            let idToken = signup.credentials.idToken

            for other in [Self.globex.id, "globex", "org_Zq81LxQ0aPj3Vt6c"] {
                let refusal = await #expect(throws: IDTokenValidationError.self) {
                    try await tenant.idTokenValidator.checking(organization: other).validate(idToken)
                }
                #expect(refusal?.code == .wrongOrganization)
            }
            let refusal = await #expect(throws: IDTokenValidationError.self) {
                try await tenant.idTokenValidator.validate(idToken, organization: "globex")
            }
            #expect(refusal?.code == .wrongOrganization)
            // The name is compared lower-cased, as Auth0.swift does.
            try await tenant.idTokenValidator.checking(organization: "ACME").validate(idToken)

            // The same session renewed by a client that asks for another organization: the
            // renewed ID token still names Acme, so the manager refuses to keep it.
            var elsewhere = tenant
            elsewhere.organization = "globex"
            let confused = VirtualUser(tenant: elsewhere, device: nil, session: session)
            await #expect(throws: CredentialsManagerError(.invalidIDToken, "")) {
                try await confused.credentialsManager.renew()
            }
        }
    }

    @Test func aLoginThroughAnOrganizationThatAssignsMembershipNamesIt() async throws {
        try await withTenant { tenant in
            let device = VirtualDevice(store: InMemoryCredentialStore())
            try await VirtualUser(tenant: tenant, device: device).signUp(email: "bob@example.com")
            var member = tenant
            member.organization = "globex"
            let login = try await VirtualUser(tenant: member, device: device).logIn()
            let claims = try await tenant.idTokenValidator.validate(login.credentials.idToken)
            #expect(claims.organizationName == "globex")

            member.organization = "acme"
            let error = await #expect(throws: PasskeyFlowError.self) {
                try await VirtualUser(tenant: member, device: device).logIn()
            }
            guard case .authentication(let refusal)? = error else {
                Issue.record("not the tenant's refusal: \(String(describing: error))")
                return
            }
            #expect(refusal.statusCode == 403)
            #expect(refusal.code.rawValue == "access_denied")
        }
    }
}
