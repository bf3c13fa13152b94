import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// The `largeBlob` extension (WebAuthn L3 §10.1.5) over CTAP 2.1 `largeBlobKey` (§12.3) and the
/// large-blob array (§6.10): support at creation, a blob written and read back per credential,
/// a write over the limit refused with nothing changed, a damaged array read as empty.
@Suite struct LargeBlobTests {
    private static func extensions(_ largeBlob: [String: JSONValue]) -> AuthenticationExtensionsClientInputsJSON {
        AuthenticationExtensionsClientInputsJSON(otherExtensions: ["largeBlob": .object(largeBlob)])
    }

    private static func register(_ ceremony: Ceremony, user: String = "alice", support: String = "required")
        async throws -> (RegistrationResponseJSON, VerifiedRegistration)
    {
        try await ceremony.register(
            Ceremony.creationOptions(
                user: user, userID: Array(user.utf8), extensions: extensions(["support": .string(support)])))
    }

    private static func assert(
        _ ceremony: Ceremony, _ registration: VerifiedRegistration, _ largeBlob: [String: JSONValue]
    ) async throws -> JSONValue? {
        var options = Ceremony.requestOptions(allow: [registration.credentialID])
        options.extensions = extensions(largeBlob)
        let (response, _) = try await ceremony.authenticate(registration.record(), options: options)
        return response.clientExtensionResults.otherExtensions["largeBlob"]
    }

    @Test func theEmptyArrayIsTheSpecificationsValue() {
        // CTAP 2.1 §6.10.2: "the initial serialized large-blob array ... h'8076be8b528d0075f7aae98d6fa57a6d3c'"
        #expect(Hex.encode(LargeBlobArray.empty.serialized) == "8076be8b528d0075f7aae98d6fa57a6d3c")
    }

    @Test func supportIsReportedAndRequiredSupportIsRefusedWithoutIt() async throws {
        let ceremony = Ceremony(SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .securityKey))
        let (response, _) = try await Self.register(ceremony)
        #expect(response.clientExtensionResults.otherExtensions["largeBlob"] == .object(["supported": .bool(true)]))
        let platform = Ceremony(SoftwareAuthenticator(store: InMemoryCredentialStore()))
        await #expect(throws: WebAuthnClientError(.notSupported, "")) { try await Self.register(platform) }
        let (preferred, _) = try await Self.register(platform, support: "preferred")
        #expect(preferred.clientExtensionResults.otherExtensions["largeBlob"] == .object(["supported": .bool(false)]))
        await #expect(throws: WebAuthnClientError(.notSupported, "")) {
            try await ceremony.register(Ceremony.creationOptions(extensions: Self.extensions(["read": .bool(true)])))
        }
    }

    @Test func eachCredentialWritesAndReadsItsOwnBlob() async throws {
        let store = InMemoryCredentialStore()
        let ceremony = Ceremony(SoftwareAuthenticator(store: store, profile: .securityKey))
        let (_, ada) = try await Self.register(ceremony, user: "ada")
        let (_, grace) = try await Self.register(ceremony, user: "grace")
        #expect(try await Self.assert(ceremony, ada, ["read": .bool(true)]) == .object([:]))
        let first = Base64URL.encode(Array("ada's certificate".utf8))
        #expect(try await Self.assert(ceremony, ada, ["write": .string(first)]) == .object(["written": .bool(true)]))
        let second = Base64URL.encode(SecureRandom.bytes(300))
        #expect(try await Self.assert(ceremony, grace, ["write": .string(second)]) == .object(["written": .bool(true)]))
        let replaced = Base64URL.encode(Array(repeating: 0x61, count: 2000))
        #expect(
            try await Self.assert(ceremony, ada, ["write": .string(replaced)]) == .object(["written": .bool(true)]))
        #expect(try await Self.assert(ceremony, ada, ["read": .bool(true)]) == .object(["blob": .string(replaced)]))
        #expect(try await Self.assert(ceremony, grace, ["read": .bool(true)]) == .object(["blob": .string(second)]))
        let array = try LargeBlobArray(serialized: await store.serializedLargeBlobArray())
        #expect(array.entries.count == 2, "a rewrite replaces the credential's entry")
        #expect(array.serialized.count < 1000, "2000 repeated bytes are stored compressed")
    }

    @Test func aWriteOverTheLimitIsRefusedAndChangesNothing() async throws {
        let store = InMemoryCredentialStore()
        let ceremony = Ceremony(SoftwareAuthenticator(store: store, profile: .securityKey))
        let (_, ada) = try await Self.register(ceremony)
        let kept = Base64URL.encode(Array("kept".utf8))
        _ = try await Self.assert(ceremony, ada, ["write": .string(kept)])
        let before = try await store.serializedLargeBlobArray()
        let tooLarge = Base64URL.encode(
            SecureRandom.bytes(AuthenticatorProfile.securityKey.maxSerializedLargeBlobArray))
        #expect(
            try await Self.assert(ceremony, ada, ["write": .string(tooLarge)]) == .object(["written": .bool(false)]))
        #expect(try await store.serializedLargeBlobArray() == before)
        #expect(try await Self.assert(ceremony, ada, ["read": .bool(true)]) == .object(["blob": .string(kept)]))

        let authenticator = SoftwareAuthenticator(store: store, profile: .securityKey)
        await #expect(throws: AuthenticatorError(.largeBlobStorageFull, "")) {
            try await authenticator.setLargeBlobs(Array(repeating: 0, count: 5000))
        }
        var damaged = before
        damaged[damaged.count - 1] ^= 1
        await #expect(throws: AuthenticatorError(.integrityFailure, "")) {
            try await authenticator.setLargeBlobs(damaged)
        }
        #expect(try await store.serializedLargeBlobArray() == before)
    }

    @Test func aDamagedArrayReadsAsEmptyAndBadInputIsRefused() async throws {
        let store = InMemoryCredentialStore()
        let ceremony = Ceremony(SoftwareAuthenticator(store: store, profile: .securityKey))
        let (_, ada) = try await Self.register(ceremony)
        _ = try await Self.assert(ceremony, ada, ["write": .string("AQID")])
        var damaged = try await store.serializedLargeBlobArray()
        damaged[0] ^= 1
        await store.setSerializedLargeBlobArray(damaged)
        #expect(try await Self.assert(ceremony, ada, ["read": .bool(true)]) == .object([:]))
        var options = Ceremony.requestOptions()
        options.extensions = Self.extensions(["write": .string("AQID")])
        await #expect(throws: WebAuthnClientError(.notSupported, "")) {
            try await ceremony.authenticate(ada.record(), options: options)
        }
        await #expect(throws: WebAuthnClientError(.notSupported, "")) {
            try await Self.assert(ceremony, ada, ["read": .bool(true), "write": .string("AQID")])
        }
        await #expect(throws: WebAuthnClientError(.syntax, "")) {
            try await Self.assert(ceremony, ada, ["write": .bool(true)])
        }
    }

    @Test(.temporaryDirectory) func theFileStoreKeepsTheArray() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        let ceremony = Ceremony(
            SoftwareAuthenticator(store: try await FileCredentialStore(directory: path), profile: .securityKey))
        let (_, ada) = try await Self.register(ceremony)
        _ = try await Self.assert(ceremony, ada, ["write": .string("c2VjcmV0")])
        let reopened = Ceremony(
            SoftwareAuthenticator(store: try await FileCredentialStore(directory: path), profile: .securityKey))
        let read = try await Self.assert(reopened, ada, ["read": .bool(true)])
        #expect(read == .object(["blob": .string("c2VjcmV0")]))
        let file = try #require(try filesBelow(path).first { $0.path.hasSuffix("largeblobs.bin") })
        #expect(!contains(file.bytes, Array("secret".utf8)))
    }
}
