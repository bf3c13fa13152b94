// The code of the article "Testing with virtual users" (Sources/PasskeyKit/PasskeyKit.docc),
// between the markers; DocumentationTests checks that the article shows exactly this.
// snippet.begin
import Auth0Passkeys
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing

@Suite struct AHundredUsers {
    @Test func signUpAndLogInInParallel() async throws {
        let tenant = try await PasskeyTenant(configuration: TenantConfiguration(), database: ":memory:")
        try await tenant.serving { endpoint in
            // A hundred users at once on a shared machine: give each exchange two minutes.
            let patient = CurlTransport(configuration: .init(timeout: .seconds(120)))
            let connection = try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL, transport: patient)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let phone = VirtualDevice(store: InMemoryCredentialStore())
                        let user = VirtualUser(tenant: connection, device: phone)
                        let signup = try await user.signUp(email: "user\(index)@example.com")
                        let login = try await user.logIn()
                        #expect(login.user.sub == signup.user.sub)
                        #expect(login.credentialID == signup.credentialID)
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}
// snippet.end
