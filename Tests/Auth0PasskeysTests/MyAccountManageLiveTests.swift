import Auth0Passkeys
import PasskeyTenant
import Testing

/// Renaming a passkey and listing factors through My Account (auth0-passkey-api.md §19), against
/// the local tenant over loopback with the real `CurlTransport`.
@Suite struct MyAccountManageLiveTests {
    /// A My Account client for a newly signed-up user, with `scope`.
    private func myAccount(_ live: LiveTenant, scope: String) async throws -> MyAccount {
        let (_, signup) = try await live.signUp("ada@example.com", device: LiveTenant.device())
        let manager = CredentialsManager(authentication: live.auth, storage: InMemoryCredentialsStorage())
        try await manager.store(credentials: signup)
        let api = try await manager.apiCredentials(
            forAudience: live.tenant.configuration.myAccountAudience, scope: scope)
        return try MyAccount(token: api.accessToken, baseURL: live.baseURL)
    }

    @Test func renameAPasskeyThenReadItsName() async throws {
        try await LiveTenant.run { live in
            let account = try await myAccount(
                live, scope: "read:me:authentication_methods update:me:authentication_methods read:me:factors")
            let methods = account.authenticationMethods
            let id = try #require(try await methods.getAuthenticationMethods(type: "passkey").start().first?.id)
            #expect(id.contains("|"))
            let renamed = try await methods.update(id: id, name: "Work laptop").start()
            #expect(renamed.id == id)
            #expect(renamed.name == "Work laptop")
            #expect(renamed.usage == ["primary"])
            #expect(try await methods.getAuthenticationMethod(by: id).start().name == "Work laptop")
            #expect(try await methods.getAuthenticationMethods().start().map(\.name) == ["Work laptop"])
            let factors = try await methods.factors().start()
            #expect(factors.map(\.type) == ["passkey"])
            #expect(factors.first?.usage == ["primary"])
        }
    }

    @Test func theTenantsRefusalsOfAnUpdate() async throws {
        try await LiveTenant.run { live in
            let account = try await myAccount(
                live, scope: "read:me:authentication_methods update:me:authentication_methods")
            let methods = account.authenticationMethods
            let id = try #require(try await methods.getAuthenticationMethods().start().first?.id)
            let empty = await #expect(throws: MyAccountError.self) {
                try await methods.update(id: id, name: "").start()
            }
            #expect(empty?.statusCode == 400)
            let phoneOnly = await #expect(throws: MyAccountError.self) {
                try await methods.update(id: id, preferredAuthenticationMethod: "sms").start()
            }
            #expect(phoneOnly?.statusCode == 400)
            let unknown = await #expect(throws: MyAccountError.self) {
                try await methods.update(id: "passkey|dev_nope", name: "x").start()
            }
            #expect(unknown?.statusCode == 404)
            let noScope = await #expect(throws: MyAccountError.self) { try await methods.factors().start() }
            #expect(noScope?.statusCode == 403)
            #expect(noScope?.code.rawValue == "insufficient_scope")
        }
    }
}
