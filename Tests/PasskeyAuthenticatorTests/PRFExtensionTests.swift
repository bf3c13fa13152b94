import Foundation
import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// The `prf` extension end to end through the client (WebAuthn L3 §10.1.4 over CTAP 2.1
/// hmac-secret): stable per credential and input, separate with and without UV.
@Suite struct PRFExtensionTests {
    func evaluate(
        _ ceremony: Ceremony, _ registered: VerifiedRegistration, first: [UInt8], second: [UInt8]? = nil,
        userVerification: UserVerificationRequirement = .required, byCredential: Bool = false
    ) async throws -> AuthenticationExtensionsPRFValuesJSON? {
        var options = Ceremony.requestOptions(allow: [registered.credentialID], userVerification: userVerification)
        let values = AuthenticationExtensionsPRFValuesJSON(
            first: Base64URL(first), second: second.map { Base64URL($0) })
        options.extensions = AuthenticationExtensionsClientInputsJSON(
            prf: byCredential
                ? AuthenticationExtensionsPRFInputsJSON(evalByCredential: [
                    Base64URL.encode(registered.credentialID): values
                ])
                : AuthenticationExtensionsPRFInputsJSON(eval: values))
        let (response, _) = try await ceremony.authenticate(registered.record(), options: options)
        return response.clientExtensionResults.prf?.results
    }

    @Test func resultsAreStablePerInputAndDifferWithoutVerification() async throws {
        let store = InMemoryCredentialStore()
        let ceremony = Ceremony(SoftwareAuthenticator(store: store, profile: .securityKey))
        let (created, registered) = try await ceremony.register(
            Ceremony.creationOptions(extensions: AuthenticationExtensionsClientInputsJSON(prf: .init())))
        #expect(created.clientExtensionResults.prf?.enabled == true)

        let one = try #require(try await evaluate(ceremony, registered, first: Array("one".utf8)))
        #expect(one.first.bytes.count == 32 && one.second == nil)
        #expect(try await evaluate(ceremony, registered, first: Array("one".utf8))?.first == one.first)
        #expect(try await evaluate(ceremony, registered, first: Array("two".utf8))?.first != one.first)
        let both = try #require(
            try await evaluate(ceremony, registered, first: Array("one".utf8), second: Array("two".utf8)))
        #expect(both.first == one.first && both.second != nil && both.second != one.first)
        let byCredential = try await evaluate(ceremony, registered, first: Array("one".utf8), byCredential: true)
        #expect(byCredential?.first == one.first)
        let withoutUV = try await evaluate(
            ceremony, registered, first: Array("one".utf8), userVerification: .discouraged)
        #expect(withoutUV?.first != one.first)
    }

    /// A credential the store makes has one sealed secret, its private key; its hmac-secret seeds
    /// derive from the store key and the credential (`SealedKeys`: HKDF-SHA-256 of a seed secret
    /// that is itself HKDF of the store key), so they are the same from a new instance of the
    /// store, differ with and without UV and from credential to credential, and are another
    /// store's for the same credential ID.
    @Test func seedsOfANewCredentialDeriveFromTheStoreKeyAndTheCredential() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("store")
        let store = try await FileCredentialStore(directory: path)
        let ceremony = Ceremony(SoftwareAuthenticator(store: store))
        let (_, registered) = try await ceremony.register(
            Ceremony.creationOptions(extensions: AuthenticationExtensionsClientInputsJSON(prf: .init())))
        let credential = try #require(try await store.credential(id: registered.credentialID))
        #expect(credential.prfSeedBlobWithUV == Array("SoftPasskey derived seed".utf8))
        #expect(credential.prfSeedBlobWithoutUV == credential.prfSeedBlobWithUV)

        let salt = HMACSecret.salt(forPRFInput: Array("one".utf8))
        let storeKey = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path + "/store.key")))
        let seedSecret = KDF.hkdfSHA256(
            inputKeyMaterial: storeKey, salt: [], info: Array("SoftPasskey hmac-secret seeds".utf8), length: 32)
        func expected(_ purpose: String) -> [UInt8] {
            let id = credential.id
            let binding =
                Array("SoftPasskey \(purpose)".utf8) + [0, UInt8(id.count >> 8), UInt8(id.count & 0xFF)] + id
                + Array(credential.rpID.utf8)
            let seed = KDF.hkdfSHA256(inputKeyMaterial: seedSecret, salt: [], info: binding, length: 32)
            return HMACSHA256.authenticationCode(for: salt, key: seed)
        }
        let withUV = try await store.hmacSecret([salt], with: credential, userVerified: true)
        #expect(withUV == [expected("prf-with-uv")])
        #expect(
            try await store.hmacSecret([salt], with: credential, userVerified: false) == [expected("prf-without-uv")])
        #expect(expected("prf-with-uv") != expected("prf-without-uv"))
        let reopened = try await FileCredentialStore(directory: path)
        #expect(try await reopened.hmacSecret([salt], with: credential, userVerified: true) == withUV)
        let prf = try await evaluate(ceremony, registered, first: Array("one".utf8))
        #expect(prf?.first.bytes == withUV?.first)

        let (_, other) = try await ceremony.register()
        let otherCredential = try #require(try await store.credential(id: other.credentialID))
        #expect(try await store.hmacSecret([salt], with: otherCredential, userVerified: true) != withUV)
        let elsewhere = InMemoryCredentialStore()
        let sameID = try await elsewhere.makeKey(
            CredentialKeyRequest(credentialID: credential.id, rpID: credential.rpID, algorithm: .es256))
        let twin = try StoredCredential(
            id: credential.id, rpID: credential.rpID, userHandle: credential.userHandle, userName: "twin",
            userDisplayName: "Twin", key: sameID, profile: "platform", backupEligible: true, backupState: true,
            discoverable: true, createdAt: Date())
        #expect(try await elsewhere.hmacSecret([salt], with: twin, userVerified: true) != withUV)
    }

    @Test func evalByCredentialMustNameAnAllowedCredential() async throws {
        let ceremony = Ceremony(SoftwareAuthenticator(store: InMemoryCredentialStore()))
        let (_, registered) = try await ceremony.register()
        var options = Ceremony.requestOptions(allow: [registered.credentialID])
        let values = AuthenticationExtensionsPRFValuesJSON(first: Base64URL([1]))
        options.extensions = AuthenticationExtensionsClientInputsJSON(
            prf: AuthenticationExtensionsPRFInputsJSON(evalByCredential: [Base64URL.encode([9, 9]): values]))
        await #expect(throws: WebAuthnClientError(.syntax, "")) {
            try await ceremony.authenticate(registered.record(), options: options)
        }
        options.allowCredentials = []
        await #expect(throws: WebAuthnClientError(.notSupported, "")) {
            try await ceremony.authenticate(registered.record(), options: options)
        }
    }
}
