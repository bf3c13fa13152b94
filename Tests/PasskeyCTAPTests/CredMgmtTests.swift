import PasskeyAuthenticator
import PasskeyCTAP
import Testing
import WebAuthn

/// authenticatorCredentialManagement (CTAP 2.1 §6.8) with a pinUvAuthToken: the metadata, the
/// RPs and their credentials with every response member, deletion and user updates, and the
/// limits of a token bound to one RP.
@Suite struct CredMgmtTests {
    static let otherRPID = "other.example"
    static let pin = "1234"

    /// A device with two discoverable credentials at example.org, one at other.example and one
    /// non-discoverable one, a PIN set, and a client for its tokens.
    struct Setup {
        let fixture = CommandsFixture()
        let alice: [UInt8]
        let bob: [UInt8]
        let carol: [UInt8]
        let pin: PINClient

        init(_ pinUVAuthProtocol: PINUVAuthProtocol = .two) async throws {
            alice = try await fixture.register(userID: [1]).credentialID
            bob = try await fixture.register(userID: [2]).credentialID
            _ = try await fixture.register(userID: [3], residentKey: false)
            var request = CommandsFixture.makeCredential(clientDataHash: [UInt8](repeating: 7, count: 32), userID: [4])
            request[2] = ["id": .text(CredMgmtTests.otherRPID)]
            let made = try #require(try await fixture.send(.makeCredential, .map(request)).response)
            let authenticatorData = try AuthenticatorData(bytes: try #require(made[2]?.bytesValue))
            carol = try #require(authenticatorData.attestedCredentialData?.credentialID)
            pin = PINClient(device: fixture.device, pinUVAuthProtocol)
            #expect(try await pin.setPIN(CredMgmtTests.pin) == .ok)
        }

        /// A token with the `cm` permission, bound to `rpID` if given.
        func token(rpID: String? = nil) async throws -> PINClient.Token {
            try await pin.token(CredMgmtTests.pin, [.credentialManagement], rpID: rpID)
        }

        /// Sends a subcommand authorized by `token`.
        func send(
            _ subcommand: Int, _ parameters: CBOR? = nil, token: PINClient.Token,
            command: CTAPCommand = .credentialManagement
        ) async throws -> (status: CTAPStatus, response: CBOR?) {
            var request: [CBOR: CBOR] = [1: CBOR(subcommand)]
            if let parameters {
                request[2] = parameters
            }
            token.authorize(
                &request, [UInt8(subcommand)] + (parameters?.encoded() ?? []), paramKey: 4, protocolKey: 3)
            return try await fixture.send(command, .map(request))
        }

        /// Sends a `GetNext…` subcommand, which carries no token.
        func next(_ subcommand: Int) async throws -> (status: CTAPStatus, response: CBOR?) {
            try await fixture.send(.credentialManagement, [1: CBOR(subcommand)])
        }
    }

    static func hash(_ rpID: String) -> CBOR {
        .bytes(SHA256Digest.hash(Array(rpID.utf8)))
    }

    static func descriptor(_ id: [UInt8]) -> CBOR {
        ["id": .bytes(id), "type": "public-key"]
    }

    @Test(arguments: [PINUVAuthProtocol.one, .two])
    func metadataCountsTheDiscoverableCredentials(pinUVAuthProtocol: PINUVAuthProtocol) async throws {
        let setup = try await Setup(pinUVAuthProtocol)
        let token = try await setup.token()
        let (status, response) = try await setup.send(0x01, token: token)
        #expect(status == .ok)
        #expect(response == [1: 3, 2: CBOR(Int(UInt32.max) - 3)])
    }

    @Test func theRPsAreEnumeratedOnceEach() async throws {
        let setup = try await Setup()
        let token = try await setup.token()
        let first = try await setup.send(0x02, token: token)
        #expect(first.status == .ok)
        #expect(first.response == [3: ["id": "example.org"], 4: Self.hash("example.org"), 5: 2])
        #expect(try await setup.next(0x03) == (.ok, [3: ["id": .text(Self.otherRPID)], 4: Self.hash(Self.otherRPID)]))
        #expect(try await setup.next(0x03).status == .notAllowed)
    }

    @Test func theCredentialsOfAnRPAreEnumeratedWithEveryMember() async throws {
        let setup = try await Setup()
        let token = try await setup.token()
        let first = try await setup.send(0x04, [1: Self.hash("example.org")], token: token)
        #expect(first.status == .ok)
        let begin = try #require(first.response)
        #expect(begin[9] == 2)
        let second = try await setup.next(0x05)
        #expect(second.status == .ok)
        let rest = try #require(second.response)
        #expect(rest[9] == nil)
        #expect(try await setup.next(0x05).status == .notAllowed)

        let authenticator = SoftwareAuthenticator(store: setup.fixture.store, profile: .securityKey)
        var seen: [[UInt8]] = []
        for listed in [begin, rest] {
            let id = try #require(listed[7]?["id"]?.bytesValue)
            #expect(listed[7] == Self.descriptor(id))
            let stored = try #require(await setup.fixture.store.credential(id: id))
            #expect(listed[6] == ["id": .bytes(stored.userHandle), "name": "alice", "displayName": "Alice"])
            #expect(listed[8] == (try stored.publicKey.cbor))
            #expect(listed[10] == 1)
            let key = try #require(await authenticator.largeBlobKey(of: stored))
            #expect(listed[11] == .bytes(key.withUnsafeBytes { Array($0) }))
            seen.append(id)
        }
        #expect(Set(seen) == [setup.alice, setup.bob])
    }

    @Test func anRPWithNoCredentialsHasNone() async throws {
        let setup = try await Setup()
        let token = try await setup.token()
        #expect(try await setup.send(0x04, [1: Self.hash("nobody.example")], token: token).status == .noCredentials)
        // The only credential of other.example: nothing is left to enumerate after it.
        let only = try await setup.send(0x04, [1: Self.hash(Self.otherRPID)], token: token)
        #expect(only.response?[7] == Self.descriptor(setup.carol))
        #expect(only.response?[9] == 1)
        #expect(try await setup.next(0x05).status == .notAllowed)
    }

    @Test func anyOtherCommandEndsAnEnumeration() async throws {
        let setup = try await Setup()
        let token = try await setup.token()
        #expect(try await setup.send(0x02, token: token).status == .ok)
        #expect(try await setup.fixture.send(.getInfo).status == .ok)
        #expect(try await setup.next(0x03).status == .notAllowed)
        #expect(try await setup.send(0x04, [1: Self.hash("example.org")], token: token).status == .ok)
        #expect(try await setup.next(0x03).status == .notAllowed)
        #expect(try await setup.next(0x05).status == .notAllowed)
    }

    @Test func aDeletedCredentialIsGone() async throws {
        let setup = try await Setup()
        let token = try await setup.token()
        let delete: CBOR = [2: Self.descriptor(setup.alice)]
        #expect(try await setup.send(0x06, delete, token: token) == (.ok, nil))
        #expect(try await setup.fixture.store.credential(id: setup.alice) == nil)
        #expect(try await setup.send(0x06, delete, token: token).status == .noCredentials)
        #expect(try await setup.send(0x01, token: token).response?[1] == 2)
    }

    @Test func updateUserInformationReplacesTheNames() async throws {
        let setup = try await Setup()
        let token = try await setup.token()
        let user: CBOR = ["id": .bytes([1]), "name": "alice@example.org"]
        #expect(try await setup.send(0x07, [2: Self.descriptor(setup.alice), 3: user], token: token) == (.ok, nil))
        let stored = try #require(await setup.fixture.store.credential(id: setup.alice))
        #expect(stored.userName == "alice@example.org")
        #expect(stored.userDisplayName.isEmpty)
        // The user ID is the credential's for good.
        let other: CBOR = ["id": .bytes([2]), "name": "mallory"]
        #expect(
            try await setup.send(0x07, [2: Self.descriptor(setup.alice), 3: other], token: token).status
                == .invalidParameter)
        #expect(try await setup.fixture.store.credential(id: setup.alice)?.userName == "alice@example.org")
    }

    @Test func aTokenBoundToAnRPManagesOnlyThatRP() async throws {
        let setup = try await Setup()
        let token = try await setup.token(rpID: "example.org")
        #expect(try await setup.send(0x01, token: token).status == .pinAuthInvalid)
        #expect(try await setup.send(0x02, token: token).status == .pinAuthInvalid)
        #expect(try await setup.send(0x04, [1: Self.hash(Self.otherRPID)], token: token).status == .pinAuthInvalid)
        #expect(try await setup.send(0x06, [2: Self.descriptor(setup.carol)], token: token).status == .pinAuthInvalid)
        #expect(try await setup.fixture.store.credential(id: setup.carol) != nil)
        #expect(try await setup.send(0x04, [1: Self.hash("example.org")], token: token).status == .ok)
        #expect(try await setup.send(0x06, [2: Self.descriptor(setup.bob)], token: token) == (.ok, nil))
        // Enumerating did not bind an unbound token: it still reaches every RP.
        let unbound = try await setup.token()
        #expect(try await setup.send(0x04, [1: Self.hash("example.org")], token: unbound).status == .ok)
        #expect(try await setup.send(0x04, [1: Self.hash(Self.otherRPID)], token: unbound).status == .ok)
        #expect(try await setup.send(0x02, token: unbound).status == .ok)
    }

    @Test func aTokenWithoutThePermissionOrAWrongParamIsRefused() async throws {
        let setup = try await Setup()
        let largeBlobWrite = try await setup.pin.token(Self.pin, [.largeBlobWrite])
        #expect(try await setup.send(0x01, token: largeBlobWrite).status == .pinAuthInvalid)
        let token = try await setup.token()
        var request: [CBOR: CBOR] = [1: 0x02]
        token.authorize(&request, [0x01], paramKey: 4, protocolKey: 3)
        #expect(try await setup.fixture.send(.credentialManagement, .map(request)).status == .pinAuthInvalid)
    }

    @Test func thePrototypeCommandIsTheSame() async throws {
        let setup = try await Setup()
        let token = try await setup.token()
        let metadata = try await setup.send(0x01, token: token, command: .credentialManagementPreview)
        #expect(metadata.status == .ok)
        #expect(metadata.response?[1] == 3)
    }
}
