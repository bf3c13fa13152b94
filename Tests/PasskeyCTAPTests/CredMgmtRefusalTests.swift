import PasskeyAuthenticator
import PasskeyCTAP
import Testing
import WebAuthn

/// authenticatorCredentialManagement (CTAP 2.1 §6.8) refuses what it must before any token is
/// checked: no store, no such subcommand, no pinUvAuthParam, a GetNext with nothing pending.
@Suite struct CredMgmtRefusalTests {
    /// A device without a credential store, and one whose authenticator has no user verification
    /// (so no PIN to authorize with).
    static func unmanaged() -> [CTAPDevice] {
        let store = InMemoryCredentialStore()
        var unverifying = AuthenticatorProfile.securityKey
        unverifying.supportsUserVerification = false
        return [
            CTAPDevice(authenticator: SoftwareAuthenticator(store: store, profile: .securityKey)),
            CTAPDevice(authenticator: SoftwareAuthenticator(store: store, profile: unverifying), credentials: store),
        ]
    }

    @Test(arguments: unmanaged())
    func aDeviceWithoutAStoreOrAPINHasNoSuchCommand(device: CTAPDevice) async throws {
        for command in [CTAPCommand.credentialManagement, .credentialManagementPreview] {
            let request = [command.rawValue] + CBOR.map([1: 1]).encoded()
            #expect(
                await device.handle(request, context: CTAPTransaction(channel: 1)) == [
                    CTAPStatus.invalidCommand.rawValue
                ])
        }
        let answer = await device.handle([CTAPCommand.getInfo.rawValue], context: CTAPTransaction(channel: 1))
        let options = try CBOR(decoding: answer.dropFirst())[4]
        #expect(options?["credMgmt"] == nil && options?["credentialMgmtPreview"] == nil)
    }

    @Test func getInfoAnnouncesCredentialManagement() async throws {
        let info = try #require(try await CommandsFixture().send(.getInfo).response)
        #expect(info[4]?["credMgmt"] == true && info[4]?["credentialMgmtPreview"] == true)
    }

    @Test(arguments: [CTAPCommand.credentialManagement, .credentialManagementPreview])
    func everySubcommandButGetNextNeedsAToken(command: CTAPCommand) async throws {
        let fixture = CommandsFixture()
        _ = try await fixture.register()
        let rpIDHash = CBOR.bytes(SHA256Digest.hash(Array(CommandsFixture.rpID.utf8)))
        let descriptor: CBOR = ["id": .bytes([1, 2, 3]), "type": "public-key"]
        let requests: [CBOR] = [
            [1: 1], [1: 2], [1: 4, 2: [1: rpIDHash]], [1: 6, 2: [2: descriptor]],
            [1: 7, 2: [2: descriptor, 3: ["id": .bytes([1, 2, 3, 4])]]],
        ]
        for request in requests {
            #expect(try await fixture.send(command, request).status == .pinUVAuthTokenRequired)
        }
        #expect(await fixture.store.all().credentials.count == 1)
    }

    @Test func aMissingSubcommandParameterIsRefusedFirst() async throws {
        let fixture = CommandsFixture()
        let param = CBOR.bytes([UInt8](repeating: 0, count: 32))
        #expect(try await fixture.send(.credentialManagement, [1: 4, 3: 2, 4: param]).status == .missingParameter)
        #expect(
            try await fixture.send(.credentialManagement, [1: 6, 2: [:], 3: 2, 4: param]).status == .missingParameter)
        #expect(
            try await fixture.send(
                .credentialManagement, [1: 7, 2: [2: ["id": .bytes([1]), "type": "public-key"]], 3: 2, 4: param]
            ).status == .missingParameter)
    }

    @Test func anUnknownSubcommandOrAMalformedRequestIsRefused() async throws {
        let fixture = CommandsFixture()
        #expect(try await fixture.send(.credentialManagement, [1: 8]).status == .invalidSubcommand)
        #expect(try await fixture.send(.credentialManagement, [1: 0]).status == .invalidSubcommand)
        #expect(try await fixture.send(.credentialManagement, [2: [:]]).status == .missingParameter)
        #expect(try await fixture.send(.credentialManagement, [1: "1"]).status == .cborUnexpectedType)
        #expect(try await fixture.send(.credentialManagement, [1: 4, 2: [1: 5]]).status == .cborUnexpectedType)
    }

    @Test func getNextWithNothingPendingIsNotAllowed() async throws {
        let fixture = CommandsFixture()
        _ = try await fixture.register()
        #expect(try await fixture.send(.credentialManagement, [1: 3]).status == .notAllowed)
        #expect(try await fixture.send(.credentialManagement, [1: 5]).status == .notAllowed)
    }
}
