import Foundation
import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// Stores already on users' disks keep opening: the stores of `Vectors/stores/`, written by the
/// format-1 code before the store key check was the session storage's `PassphraseVerifier`, are
/// opened, read, signed with and changed by this library.
@Suite struct FileCredentialStoreMigrationTests {
    /// The passphrase of `Vectors/stores/v1-passphrase`.
    private static let passphrase = "correct horse battery staple"

    @Test(arguments: ["v1-keyfile", "v1-passphrase"])
    func aFormatOneStoreOpensSignsAndChanges(name: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("store")
        try copyFixture(name, to: path)
        let passphrase = name == "v1-passphrase" ? Passphrase(Self.passphrase) : nil

        let store = try await FileCredentialStore(directory: path, passphrase: passphrase)
        let listing = try await store.all()
        #expect(listing.problems.isEmpty)
        let credential = try #require(listing.credentials.first)
        #expect(listing.credentials.count == 1 && credential.rpID == "example.org")
        #expect(try await signs(store, with: credential))
        #expect(try await store.incrementCounter(id: credential.id) == credential.signCount + 1)

        let reopened = try await FileCredentialStore(directory: path, passphrase: passphrase)
        let stored = try #require(try await reopened.credential(id: credential.id))
        #expect(stored.signCount == credential.signCount + 1)
        #expect(try await reopened.summaries(rpID: "example.org").map(\.id) == [credential.id])
    }

    /// A credential made before the seeds were derived keeps its sealed seeds, and so its
    /// hmac-secret and PRF outputs: the expected values were computed from the fixture with
    /// Python's `cryptography` (AES-256-GCM open of each sealed seed, then HMAC-SHA-256 of the
    /// PRF salt of "softpasskey old-form prf"), not with this library.
    @Test func aFormatOneCredentialKeepsItsPRFOutputs() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("store")
        try copyFixture("v1-keyfile", to: path)
        let store = try await FileCredentialStore(directory: path)
        let credential = try #require(try await store.all().credentials.first)
        #expect(credential.prfSeedBlobWithUV?.count == 60 && credential.prfSeedBlobWithoutUV?.count == 60)
        let input = Array("softpasskey old-form prf".utf8)
        let salt = HMACSecret.salt(forPRFInput: input)
        let withUV = try Hex.decode("7bb07208cebd2590c2abf94a773db6f18dfba2a7cfa6952a8b4dc66750fd2cac")
        let withoutUV = try Hex.decode("8bcf2b7ce4883a45fda6ce6a70b08e7255143a0b187436dae459d413f750bb7c")
        #expect(try await store.hmacSecret([salt], with: credential, userVerified: true) == [withUV])
        #expect(try await store.hmacSecret([salt], with: credential, userVerified: false) == [withoutUV])

        // The same through the client's `prf` extension, over hmac-secret (the platform verifies).
        let client = WebAuthnClient(authenticator: SoftwareAuthenticator(store: store))
        var options = PublicKeyCredentialRequestOptionsJSON(
            challenge: Base64URL(SecureRandom.bytes(32)), rpId: "example.org",
            allowCredentials: [PublicKeyCredentialDescriptorJSON(id: Base64URL(credential.id))])
        options.extensions = AuthenticationExtensionsClientInputsJSON(
            prf: AuthenticationExtensionsPRFInputsJSON(
                eval: AuthenticationExtensionsPRFValuesJSON(first: Base64URL(input))))
        let response = try await client.get(options, origin: WebOrigin("https://example.org"))
        #expect(response.clientExtensionResults.prf?.results?.first.bytes == withUV)
        let reopened = try await FileCredentialStore(directory: path)
        #expect(try await reopened.hmacSecret([salt], with: credential, userVerified: true) == [withUV])
    }

    @Test func aFormatOnePassphraseStoreRefusesAnotherPassphraseAndNone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("store")
        try copyFixture("v1-passphrase", to: path)
        await #expect(throws: StoreError(.wrongPassphrase, "")) {
            try await FileCredentialStore(directory: path, passphrase: Passphrase("wrong horse"))
        }
        await #expect(throws: StoreError(.wrongPassphrase, "")) {
            try await FileCredentialStore(directory: path)
        }
    }

    @Test func aFormatOneKeyFileStoreRefusesAnotherKey() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("store")
        try copyFixture("v1-keyfile", to: path)
        try Data(SecureRandom.bytes(32)).write(to: URL(fileURLWithPath: path + "/store.key"))
        let error = await #expect(throws: StoreError(.corrupt, "")) { try await FileCredentialStore(directory: path) }
        #expect(error?.file == path + "/store.key")
    }

    /// Copies a store of `Vectors/stores/` to `path`, where the store may change it.
    private func copyFixture(_ name: String, to path: String) throws {
        let fixture = Vectors.root.appendingPathComponent("stores").appendingPathComponent(name)
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
    }
}
