import PasskeyAuthenticator
import Testing
import WebAuthn

@Suite struct SeedTests {
    static let seed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

    func register(seed: String, user: String = "alice", in store: InMemoryCredentialStore = .init()) async throws
        -> RegistrationResponseJSON
    {
        let authenticator = SoftwareAuthenticator(store: store, seed: try Seed(hex: seed))
        let options = Ceremony.creationOptions(user: user, userID: Array(user.utf8))
        return try await Ceremony(authenticator).register(options).0
    }

    @Test func theSameSeedAndRequestGiveTheSameCredentialInAFreshStore() async throws {
        let first = try await register(seed: Self.seed)
        let second = try await register(seed: Self.seed)
        #expect(first.rawId == second.rawId)
        #expect(first.response.publicKey == second.response.publicKey)
    }

    @Test func anotherSeedUserOrIndexGivesAnotherCredential() async throws {
        let base = try await register(seed: Self.seed)
        let otherSeed = try await register(seed: String(Self.seed.reversed()))
        let otherUser = try await register(seed: Self.seed, user: "bob")
        let store = InMemoryCredentialStore()
        let first = try await register(seed: Self.seed, in: store)
        let again = try await register(seed: Self.seed, in: store)
        #expect(Set([base.rawId, otherSeed.rawId, otherUser.rawId]).count == 3)
        #expect(first.rawId == base.rawId)
        #expect(again.rawId != first.rawId)
        #expect(again.response.publicKey != first.response.publicKey)
    }

    @Test func aSeededCredentialSignsAndVerifies() async throws {
        let store = InMemoryCredentialStore()
        let ceremony = Ceremony(SoftwareAuthenticator(store: store, seed: try Seed(hex: Self.seed)))
        let (_, verified) = try await ceremony.register()
        _ = try await ceremony.authenticate(verified.record())
    }

    @Test func shortOrMalformedSeedsAreRefusedAndSeedsNeverPrint() throws {
        #expect(throws: WebAuthnError(.invalidKey, "")) { try Seed(hex: "00112233") }
        #expect(throws: WebAuthnError(.malformedEncoding, "")) { try Seed(hex: "not hex at all, not hex at all!!") }
        let seed = try Seed(hex: Self.seed)
        #expect(!"\(seed)".contains("0001"))
        #expect(!String(reflecting: seed).contains("0001"))
        var dumped = ""
        dump(seed, to: &dumped)
        #expect(!dumped.contains("0001"))
    }
}
