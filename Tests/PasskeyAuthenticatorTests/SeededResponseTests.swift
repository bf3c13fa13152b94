import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// Seeded mode reproduces whole ceremonies: credential IDs and keys come from the seed, and every
/// signature from RFC 6979, so a `create` and a `get` in a fresh store give the same bytes on
/// every run, whatever the store.
@Suite struct SeededResponseTests {
    static let seed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    static let origin = try! WebOrigin("https://example.com")

    struct Case: Sendable, CustomTestStringConvertible {
        let profile: AuthenticatorProfile
        let algorithm: COSEAlgorithm
        var testDescription: String { "\(profile.name) \(algorithm)" }
    }

    static let cases = [
        Case(profile: .platform, algorithm: .es256), Case(profile: .platform, algorithm: .eddsa),
        Case(profile: .securityKey, algorithm: .es256),
    ]

    /// One `create` (attestation asked for, so a self-attesting profile signs it) and one `get` in
    /// `store`, with fixed challenges; the two responses as JSON.
    static func ceremony(_ kind: Case, seed: Seed?, store: any CredentialStore) async throws -> [UInt8] {
        let authenticator = SoftwareAuthenticator(store: store, profile: kind.profile.narrowed(for: store), seed: seed)
        let client = WebAuthnClient(authenticator: authenticator)
        let creation = PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(name: "Example", id: "example.com"),
            user: PublicKeyCredentialUserEntityJSON(
                id: Base64URL(Array("user-alice".utf8)), name: "alice", displayName: "Alice"),
            challenge: Base64URL([UInt8](repeating: 0xC1, count: 32)),
            pubKeyCredParams: [PublicKeyCredentialParameters(alg: kind.algorithm.rawValue)],
            authenticatorSelection: AuthenticatorSelectionCriteria(residentKey: .required), attestation: .direct)
        let registration = try await client.create(creation, origin: origin)
        let request = PublicKeyCredentialRequestOptionsJSON(
            challenge: Base64URL([UInt8](repeating: 0xC2, count: 32)), rpId: "example.com")
        let assertion = try await client.get(request, origin: origin)
        let record = try RelyingParty(id: "example.com").verifyRegistration(
            registration, challenge: creation.challenge.bytes
        ).record()
        _ = try RelyingParty(id: "example.com").verifyAuthentication(
            assertion, challenge: request.challenge.bytes, credential: record)
        return WebAuthnJSON.encode(registration) + WebAuthnJSON.encode(assertion)
    }

    @Test(arguments: cases)
    func twoSeededRunsInFreshStoresGiveTheSameBytes(_ kind: Case) async throws {
        let seed = try Seed(hex: Self.seed)
        let directory = try TemporaryDirectory(prefix: "seeded")
        defer { directory.remove() }
        let first = try await Self.ceremony(kind, seed: seed, store: InMemoryCredentialStore())
        let second = try await Self.ceremony(kind, seed: seed, store: InMemoryCredentialStore())
        let onFile = try await Self.ceremony(
            kind, seed: seed, store: try await FileCredentialStore(directory: directory.appending("one")))
        let onFileAgain = try await Self.ceremony(
            kind, seed: seed, store: try await FileCredentialStore(directory: directory.appending("two")))
        #expect(first == second)
        #expect(onFile == first)
        #expect(onFileAgain == first)
    }

    /// The control: without a seed, nothing of the above is a given.
    @Test(arguments: cases.filter { $0.algorithm == .es256 })
    func withoutASeedTwoRunsDiffer(_ kind: Case) async throws {
        let first = try await Self.ceremony(kind, seed: nil, store: InMemoryCredentialStore())
        let second = try await Self.ceremony(kind, seed: nil, store: InMemoryCredentialStore())
        #expect(first != second)
    }
}
