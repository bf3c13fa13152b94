import PasskeyAuthenticator
import Testing
import WebAuthn

/// Failure injection: what each simulation does to a ceremony, and that the relying party
/// refuses what a misbehaving authenticator produces.
@Suite struct SimulationTests {
    /// A store with one platform credential, and its verified registration.
    func registered() async throws -> (InMemoryCredentialStore, VerifiedRegistration) {
        let store = InMemoryCredentialStore()
        let (_, verified) = try await Ceremony(SoftwareAuthenticator(store: store)).register()
        return (store, verified)
    }

    @Test(arguments: [Simulation.cancel, .timeout])
    func theUserNotActingIsNotAllowedAndStoresNothing(_ simulation: Simulation) async throws {
        let store = InMemoryCredentialStore()
        let ceremony = Ceremony(SoftwareAuthenticator(store: store, simulation: simulation))
        let error = await #expect(throws: WebAuthnClientError.self) { try await ceremony.register() }
        #expect(error?.name == .notAllowed)
        #expect(await store.all().credentials.isEmpty)

        let (existing, verified) = try await registered()
        let refused = Ceremony(SoftwareAuthenticator(store: existing, simulation: simulation))
        await #expect(throws: WebAuthnClientError(.notAllowed, "")) {
            try await refused.authenticate(verified.record())
        }
    }

    @Test func deniedVerificationIsNotAllowedWhenRequiredAndDroppedWhenPreferred() async throws {
        let (store, verified) = try await registered()
        let ceremony = Ceremony(SoftwareAuthenticator(store: store, simulation: .denyUV))
        await #expect(throws: WebAuthnClientError(.notAllowed, "")) {
            try await ceremony.authenticate(
                verified.record(), options: Ceremony.requestOptions(userVerification: .required))
        }
        let (response, assertion) = try await ceremony.authenticate(
            verified.record(), options: Ceremony.requestOptions(userVerification: .preferred))
        #expect(!assertion.userVerified)
        #expect(response.response.userHandle != nil)
    }

    @Test func noPresenceIsRefusedByTheRelyingParty() async throws {
        let (store, verified) = try await registered()
        let ceremony = Ceremony(SoftwareAuthenticator(store: store, simulation: .noPresence))
        let error = await #expect(throws: WebAuthnError.self) { try await ceremony.authenticate(verified.record()) }
        #expect(error?.code == .upFlagMissing)
    }

    @Test func aBogusSignatureIsRefusedByTheRelyingParty() async throws {
        let (store, verified) = try await registered()
        let ceremony = Ceremony(SoftwareAuthenticator(store: store, simulation: .bogusSignature))
        let error = await #expect(throws: WebAuthnError.self) { try await ceremony.authenticate(verified.record()) }
        #expect(error?.code == .badSignature)
    }

    @Test func aBogusSelfAttestationIsRefusedByTheRelyingParty() async throws {
        let authenticator = SoftwareAuthenticator(
            store: InMemoryCredentialStore(), profile: .securityKey, simulation: .bogusSignature)
        let error = await #expect(throws: WebAuthnError.self) {
            try await Ceremony(authenticator).register(Ceremony.creationOptions(attestation: .direct))
        }
        #expect(error?.code == .badAttestationSignature)
    }

    @Test func requiredVerificationWithAnAuthenticatorThatCannotVerifyIsNotAllowed() async throws {
        let ceremony = Ceremony(NoUVAuthenticator(SoftwareAuthenticator(store: InMemoryCredentialStore())))
        await #expect(throws: WebAuthnClientError(.notAllowed, "")) {
            try await ceremony.register(Ceremony.creationOptions(userVerification: .required))
        }
    }
}

/// Another backend behind the protocol: the software authenticator, claiming no built-in UV.
struct NoUVAuthenticator: Authenticator {
    let base: SoftwareAuthenticator

    init(_ base: SoftwareAuthenticator) {
        self.base = base
    }

    var info: AuthenticatorInfo {
        var info = base.info
        info.supportsUserVerification = false
        return info
    }

    func makeCredential(_ request: MakeCredentialRequest) async throws(AuthenticatorError) -> MakeCredentialResponse {
        try await base.makeCredential(request)
    }

    func getAssertion(_ request: GetAssertionRequest) async throws(AuthenticatorError) -> GetAssertionResponse {
        try await base.getAssertion(request)
    }
}
