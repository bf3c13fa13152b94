import Auth0Passkeys
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// The authenticator's own extension point, `Authenticator`, implemented from a target that sees
/// public API only: ``KeyringAuthenticator`` is a device of PasskeyKit's virtual users like the
/// software authenticator, through every flow against the local tenant.
@Suite struct AuthenticatorExtensionTests {
    @Test func aUserSignsUpLogsInAndEnrollsWithAnAuthenticatorOfItsOwn() async throws {
        let tenant = try await PasskeyTenant(configuration: TenantConfiguration(), database: ":memory:")
        try await tenant.application(port: 0).test(.router) { client in
            let connection = try Tenant(
                clientID: tenant.clientID, baseURL: "https://localhost", transport: RouterTransport(client: client))
            let key = KeyringAuthenticator()
            let user = VirtualUser(tenant: connection, device: VirtualDevice(authenticator: key))
            #expect(user.device?.store == nil, "nothing of the key's is a CredentialStore")

            let signup = try await user.signUp(email: "ada@example.com")
            #expect(await key.keyring.passkeys.map(\.id) == [signup.credentialID])
            let login = try await user.logIn()
            #expect(login.user.sub == signup.user.sub && login.credentialID == signup.credentialID)
            let signed = try AuthenticatorData(bytes: login.assertion.response.authenticatorData.bytes)
            #expect(signed.signCount == 1, "the key's own counter, which the tenant accepted")

            let otherKey = KeyringAuthenticator()
            let enrolled = try await user.enroll(from: VirtualDevice(authenticator: otherKey))
            #expect(await otherKey.keyring.passkeys.map(\.id) == [enrolled.credentialID])
            #expect(try await user.authenticationMethods(type: "passkey").count == 2)
            let fromOtherKey = try await user.logIn(on: VirtualDevice(authenticator: otherKey))
            #expect(fromOtherKey.user.sub == signup.user.sub && fromOtherKey.credentialID == enrolled.credentialID)

            // Which passkey to use is the key's own choice, not one PasskeyKit can simulate.
            let error = await #expect(throws: PasskeyFlowError.self) { try await user.logIn(choosing: .user("ada")) }
            guard case .device(let refusal)? = error else {
                Issue.record("not the device's refusal: \(String(describing: error))")
                return
            }
            #expect(refusal.name == .notSupported)
        }
    }
}
