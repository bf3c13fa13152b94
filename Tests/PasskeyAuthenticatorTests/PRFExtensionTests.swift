import PasskeyAuthenticator
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
