import PasskeyAuthenticator
import Testing
import WebAuthn

/// What a profile cannot do is refused or left out, as the W3C virtual authenticator's
/// `hasResidentKey`, `hasUserVerification`, `extensions` and backup defaults say (WebAuthn L3
/// §11.2); the client maps each refusal as §5.1.3 does.
@Suite struct ProfileCapabilityTests {
    private func authenticator(_ change: (inout AuthenticatorProfile) -> Void) -> SoftwareAuthenticator {
        var profile = AuthenticatorProfile.securityKey
        change(&profile)
        return SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: profile)
    }

    @Test func withoutResidentKeysARequiredDiscoverableCredentialIsNotSupported() async throws {
        let authenticator = authenticator {
            $0.supportsResidentKeys = false
            $0.alwaysDiscoverable = true
        }
        let ceremony = Ceremony(authenticator)
        let error = await #expect(throws: WebAuthnClientError.self) { try await ceremony.register() }
        #expect(error?.name == .notSupported)
        _ = try await ceremony.register(Ceremony.creationOptions(residentKey: .discouraged))
        #expect(try await authenticator.store.all().credentials.map(\.discoverable) == [false])
    }

    @Test func withoutUserVerificationRequiredVerificationIsRefusedAndPreferredGoesWithout() async throws {
        let ceremony = Ceremony(authenticator { $0.supportsUserVerification = false })
        await #expect(throws: WebAuthnClientError.self) {
            try await ceremony.register(Ceremony.creationOptions(userVerification: .required))
        }
        let (_, verified) = try await ceremony.register(Ceremony.creationOptions(userVerification: .preferred))
        #expect(!verified.userVerified)
    }

    @Test func withoutHMACSecretPRFIsNotEnabled() async throws {
        let ceremony = Ceremony(authenticator { $0.extensions = [] })
        let (response, _) = try await ceremony.register(
            Ceremony.creationOptions(extensions: AuthenticationExtensionsClientInputsJSON(prf: .init())))
        #expect(response.clientExtensionResults.prf?.enabled != true)
    }

    @Test func backupEligibilityAndStateAreSetApart() async throws {
        let ceremony = Ceremony(authenticator { $0.backupEligible = true })
        let (_, verified) = try await ceremony.register()
        #expect(verified.backupEligible)
        #expect(!verified.backupState)
    }
}
