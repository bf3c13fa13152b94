import Auth0Passkeys
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing

/// README, "Testing against Auth0": the sample runs as written, against a local tenant on
/// loopback with the real libcurl client: an organization that requires membership, DPoP
/// required by the application, a user seeded through the Management API who then logs in (and
/// whose ID token the client has checked names the organization).
@Suite struct TestingAgainstAuth0Tests {
    @Test func theReadmeSample() async throws {
        // snippet.begin
        var configuration = TenantConfiguration()
        configuration.organizations = [TenantOrganization(name: "acme", members: ["ada@example.com"])]
        configuration.organizationUsage = .require  // members only
        configuration.identifiers.username = IdentifierAttribute(signup: .optional, usernameLength: 3...15)
        configuration.requireProofOfPossession = true  // the application's "Require Proof of Possession"
        let tenant = try await PasskeyTenant(configuration: configuration, database: ":memory:")
        let login = try await tenant.serving { endpoint in
            var auth0 = try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL)
            auth0.organization = "acme"  // sent with every challenge; each ID token must name it
            auth0.usesDPoP = true  // a P-256 key per user, a proof on every token request
            let management = try await auth0.managementAPI(
                clientID: tenant.managementClientID, clientSecret: ClientSecret(tenant.managementClientSecret.text))
            let ada = VirtualUser(tenant: auth0, device: VirtualDevice(store: InMemoryCredentialStore()))
            try await ada.seed(email: "ada@example.com", using: management)  // no signup ceremony
            return try await ada.logIn()
        }
        print(login.user.sub, login.credentials.tokenType)  // auth0|…  DPoP
        // snippet.end
        #expect(login.credentials.tokenType == "DPoP")
        #expect(login.user.email == "ada@example.com")
    }
}
