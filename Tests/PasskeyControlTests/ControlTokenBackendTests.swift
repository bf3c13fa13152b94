import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyControl
import PasskeyPKCS11
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The control server whose file stores keep their keys in a PKCS#11 token (`passkey serve
/// --backend pkcs11`, issue 16): a virtual user signs up and logs in with a passkey whose private
/// key is on a SoftHSM2 token, and the store's record names the token.
@Suite struct ControlTokenBackendTests {
    @Test func aVirtualUserSignsUpAndLogsInWithAKeyOnTheToken() async throws {
        try await SoftHSMToken.prepare()
        let token = try await PKCS11Token.open(
            module: PKCS11Module.load(SoftHSMToken.module), label: SoftHSMToken.label,
            pin: PKCS11PIN(SoftHSMToken.pin))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storePath = directory.appending("store")
        let tenant = try await PasskeyTenant(configuration: TenantConfiguration(), database: ":memory:")
        try await tenant.serving { endpoint in
            try await withControlServer(service: ControlService(custody: PKCS11KeyCustody(token: token))) { client in
                let session = try await client.newSession()
                let authenticator = try await client.addAuthenticator(
                    session, #"{"softpasskey:profile":"platform","softpasskey:store":"\#(storePath)"}"#)
                let added = try await client.send(
                    .post, "/session/\(session)/users",
                    #"{"tenant":{"clientId":"\#(tenant.clientID)","baseURL":"\#(endpoint.baseURL)"},"authenticatorId":"\#(authenticator)"}"#
                )
                let path = "/session/\(session)/users/\(try #require(added.value?.stringValue, "\(added.text)"))"
                let signup = try await client.send(.post, path + "/signup", #"{"email":"ada@example.com"}"#)
                let signedUp = try #require(signup.value?.objectValue, "\(signup.text)")
                let login = try await client.send(.post, path + "/login", "{}")
                let loggedIn = try #require(login.value?.objectValue, "\(login.text)")
                #expect(loggedIn["credentialId"]?.stringValue == signedUp["credentialId"]?.stringValue)
            }
        }
        let reopened = try await FileCredentialStore(
            directory: storePath, custody: PKCS11KeyCustody(token: token))
        let records = try await reopened.all().credentials
        #expect(records.count == 1)
        #expect(records.first?.privateKeyBlob == Array("pkcs11:\(SoftHSMToken.label)".utf8))
        let record = try #require(records.first)
        #expect(try await token.publicKey(keyID: record.id, algorithm: record.algorithm) == (try record.publicKey))
        await #expect(throws: StoreError.self) { try await FileCredentialStore(directory: storePath) }
    }
}
