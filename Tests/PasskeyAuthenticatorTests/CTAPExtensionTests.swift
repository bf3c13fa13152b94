import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// The CTAP authenticator extensions behind WebAuthn client extensions: `credProtect` (CTAP 2.1
/// §12.1), `credBlob` / `getCredBlob` (§12.2), `minPinLength` (§12.4) and `hmac-secret-mc`
/// (CTAP 2.2 §12.7) for `prf` at creation (WebAuthn L3 §10.1.4). Each response is verified by
/// the relying party; each extension output is read from the verified authenticator data.
@Suite struct CTAPExtensionTests {
    private static func inputs(_ others: [String: JSONValue], prf: AuthenticationExtensionsPRFInputsJSON? = nil)
        -> AuthenticationExtensionsClientInputsJSON
    {
        AuthenticationExtensionsClientInputsJSON(prf: prf, otherExtensions: others)
    }

    private static func output(_ name: String, of registration: VerifiedRegistration) -> CBOR? {
        registration.authenticatorData.extensions?.mapValue?[.text(name)]
    }

    private func register(
        _ ceremony: Ceremony, _ others: [String: JSONValue], userVerification: UserVerificationRequirement? = nil,
        prf: AuthenticationExtensionsPRFInputsJSON? = nil
    ) async throws -> (RegistrationResponseJSON, VerifiedRegistration) {
        try await ceremony.register(
            Ceremony.creationOptions(
                userVerification: userVerification, extensions: Self.inputs(others, prf: prf)))
    }

    /// A security key's credential registered with the credProtect `policy`, whose level the
    /// authenticator data must report.
    private func securityKeyCredential(protectedBy policy: String, level: Int) async throws
        -> (ceremony: Ceremony, registration: VerifiedRegistration)
    {
        let ceremony = Ceremony(SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .securityKey))
        let (_, registration) = try await register(ceremony, ["credentialProtectionPolicy": .string(policy)])
        #expect(Self.output("credProtect", of: registration) == CBOR(level))
        return (ceremony, registration)
    }

    @Test func aLevelThreeCredentialIsUsedOnlyWithUserVerification() async throws {
        let (ceremony, registration) = try await securityKeyCredential(
            protectedBy: "userVerificationRequired", level: 3)
        let record = registration.record()
        for allow in [[], [registration.credentialID]] {
            await #expect(throws: WebAuthnClientError(.notAllowed, "")) {
                try await ceremony.authenticate(
                    record, options: Ceremony.requestOptions(allow: allow, userVerification: .discouraged))
            }
            let (_, verified) = try await ceremony.authenticate(
                record, options: Ceremony.requestOptions(allow: allow, userVerification: .required))
            #expect(verified.userVerified)
        }
    }

    @Test func aLevelTwoCredentialNeedsAnAllowListWithoutUserVerification() async throws {
        let (ceremony, registration) = try await securityKeyCredential(
            protectedBy: "userVerificationOptionalWithCredentialIDList", level: 2)
        let record = registration.record()
        await #expect(throws: WebAuthnClientError(.notAllowed, "")) {
            try await ceremony.authenticate(record, options: Ceremony.requestOptions(userVerification: .discouraged))
        }
        _ = try await ceremony.authenticate(
            record, options: Ceremony.requestOptions(allow: [registration.credentialID], userVerification: .discouraged)
        )
        _ = try await ceremony.authenticate(record, options: Ceremony.requestOptions(userVerification: .required))
    }

    @Test func enforcementFailsOnAnAuthenticatorWithoutCredProtect() async throws {
        var profile = AuthenticatorProfile.securityKey
        profile.extensions = ["hmac-secret"]
        let ceremony = Ceremony(SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: profile))
        await #expect(throws: WebAuthnClientError(.notAllowed, "")) {
            try await register(
                ceremony,
                [
                    "credentialProtectionPolicy": .string("userVerificationRequired"),
                    "enforceCredentialProtectionPolicy": .bool(true),
                ])
        }
        let (_, registration) = try await register(
            ceremony, ["credentialProtectionPolicy": .string("userVerificationRequired")])
        #expect(Self.output("credProtect", of: registration) == nil)
        await #expect(throws: WebAuthnClientError(.syntax, "")) {
            try await register(ceremony, ["credentialProtectionPolicy": .string("always")])
        }
    }

    @Test func aCredBlobIsKeptAndReadBack() async throws {
        let store = InMemoryCredentialStore()
        let ceremony = Ceremony(SoftwareAuthenticator(store: store, profile: .securityKey))
        let blob = Array(0..<32).map(UInt8.init)
        let (response, registration) = try await register(ceremony, ["credBlob": .string(Base64URL.encode(blob))])
        #expect(Self.output("credBlob", of: registration) == .bool(true))
        #expect(response.clientExtensionResults.otherExtensions["credBlob"] == .bool(true))
        let options = Ceremony.requestOptions()
        var withCredBlob = options
        withCredBlob.extensions = Self.inputs(["getCredBlob": .bool(true)])
        let (assertion, verified) = try await ceremony.authenticate(registration.record(), options: withCredBlob)
        #expect(verified.authenticatorData.extensions?.mapValue?[.text("credBlob")] == .bytes(blob))
        #expect(assertion.clientExtensionResults.otherExtensions["getCredBlob"] == .string(Base64URL.encode(blob)))

        let (tooLong, tooLongRegistration) = try await register(
            ceremony, ["credBlob": .string(Base64URL.encode(blob + [0]))])
        #expect(Self.output("credBlob", of: tooLongRegistration) == .bool(false))
        #expect(tooLong.clientExtensionResults.otherExtensions["credBlob"] == .bool(false))
        #expect(try await store.credential(id: tooLongRegistration.credentialID)?.credBlob == nil)
    }

    @Test func minPinLengthIsReportedToTheRelyingPartiesAllowed() async throws {
        let ceremony = Ceremony(SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .securityKey))
        let (_, registration) = try await register(ceremony, ["minPinLength": .bool(true)])
        #expect(Self.output("minPinLength", of: registration) == CBOR(4))
        var profile = AuthenticatorProfile.securityKey
        profile.minPINLengthRPIDs = ["other.example"]
        let elsewhere = Ceremony(SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: profile))
        let (_, hidden) = try await register(elsewhere, ["minPinLength": .bool(true)])
        #expect(Self.output("minPinLength", of: hidden) == nil)
    }

    @Test func prfEvaluatedAtCreationEqualsTheSameEvaluationLater() async throws {
        let ceremony = Ceremony(SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .securityKey))
        let values = AuthenticationExtensionsPRFValuesJSON(first: Base64URL(Array("salt one".utf8)))
        let prf = AuthenticationExtensionsPRFInputsJSON(eval: values)
        let (response, registration) = try await register(ceremony, [:], userVerification: .required, prf: prf)
        #expect(Self.output("hmac-secret", of: registration) == .bool(true))
        let atCreation = try #require(response.clientExtensionResults.prf?.results)
        #expect(response.clientExtensionResults.prf?.enabled == true)
        var options = Ceremony.requestOptions(userVerification: .required)
        options.extensions = AuthenticationExtensionsClientInputsJSON(prf: prf)
        let (assertion, _) = try await ceremony.authenticate(registration.record(), options: options)
        #expect(assertion.clientExtensionResults.prf?.results == atCreation)
        #expect(atCreation.first.bytes.count == 32)

        let platform = Ceremony(SoftwareAuthenticator(store: InMemoryCredentialStore()))
        let (onPlatform, _) = try await register(platform, [:], prf: prf)
        #expect(onPlatform.clientExtensionResults.prf?.enabled == true)
        #expect(onPlatform.clientExtensionResults.prf?.results == nil, "no hmac-secret-mc on the platform profile")
    }

    @Test(.temporaryDirectory) func theFileStoreKeepsTheExtensionsState() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        let ceremony = Ceremony(
            SoftwareAuthenticator(store: try await FileCredentialStore(directory: path), profile: .securityKey))
        let (_, registration) = try await register(
            ceremony,
            ["credentialProtectionPolicy": .string("userVerificationRequired"), "credBlob": .string("AQID")])
        let reopened = try await FileCredentialStore(directory: path)
        let stored = try #require(try await reopened.credential(id: registration.credentialID))
        #expect(stored.credentialProtection == .userVerificationRequired)
        #expect(stored.credBlob == [1, 2, 3])
    }
}
