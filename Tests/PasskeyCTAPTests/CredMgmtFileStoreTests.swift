import PasskeyAuthenticator
import PasskeyCTAP
import TestSupport
import Testing
import WebAuthn

/// Credential management and large blobs over a ``FileCredentialStore``, as `passkey device`
/// runs them: what they change is on disk when the store is opened again, and Reset empties the
/// array there too.
@Suite(.temporaryDirectory) struct CredMgmtFileStoreTests {
    static let pin = "2468"

    /// A device over `store`, as `passkey device --allow-reset` makes it.
    static func device(_ store: FileCredentialStore) -> CTAPDevice {
        CTAPDevice(
            authenticator: SoftwareAuthenticator(store: store, profile: .securityKey), state: store,
            wipe: CTAPDevice.wiping(store), clock: ManualClock().clock, credentials: store)
    }

    static func send(_ device: CTAPDevice, _ command: CTAPCommand, _ request: [CBOR: CBOR]) async throws -> (
        status: CTAPStatus, response: CBOR?
    ) {
        let answer = await device.handle([command.rawValue] + CBOR.map(request).encoded(), context: .init(channel: 1))
        let status = CTAPStatus(rawValue: try #require(answer.first))
        return (status, answer.count > 1 ? try CBOR(decoding: answer.dropFirst()) : nil)
    }

    @Test func changesAreOnDiskWhenTheStoreIsOpenedAgain() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        let store = try await FileCredentialStore(directory: path)
        let device = Self.device(store)
        var ids: [[UInt8]] = []
        for user in [[UInt8]([1]), [2]] {
            let request = CommandsFixture.makeCredential(clientDataHash: [UInt8](repeating: 1, count: 32), userID: user)
            let made = try #require(try await Self.send(device, .makeCredential, request).response?[2]?.bytesValue)
            ids.append(try #require(try AuthenticatorData(bytes: made).attestedCredentialData?.credentialID))
        }
        let client = PINClient(device: device)
        #expect(try await client.setPIN(Self.pin) == .ok)
        let token = try await client.token(Self.pin, [.credentialManagement, .largeBlobWrite])

        let renamed: CBOR = [
            2: ["id": .bytes(ids[0]), "type": "public-key"], 3: ["id": .bytes([1]), "name": "renamed"],
        ]
        var update: [CBOR: CBOR] = [1: 7, 2: renamed]
        token.authorize(&update, [7] + renamed.encoded(), paramKey: 4, protocolKey: 3)
        #expect(try await Self.send(device, .credentialManagement, update).status == .ok)
        let deleted: CBOR = [2: ["id": .bytes(ids[1]), "type": "public-key"]]
        var delete: [CBOR: CBOR] = [1: 6, 2: deleted]
        token.authorize(&delete, [6] + deleted.encoded(), paramKey: 4, protocolKey: 3)
        #expect(try await Self.send(device, .credentialManagement, delete).status == .ok)
        let array = LargeBlobCommandTests.array(count: 40)
        var set: [CBOR: CBOR] = [2: .bytes(array), 3: 0, 4: 40]
        token.authorize(&set, LargeBlobPINTests.message(offset: 0, array), paramKey: 5, protocolKey: 6)
        #expect(try await Self.send(device, .largeBlobs, set).status == .ok)

        let reopened = try await FileCredentialStore(directory: path)
        #expect(try await reopened.credential(id: ids[0])?.userName == "renamed")
        #expect(try await reopened.credential(id: ids[1]) == nil)
        #expect(try await reopened.serializedLargeBlobArray() == array)

        let reset = await Self.device(reopened).handle([CTAPCommand.reset.rawValue], context: .init(channel: 1))
        #expect(reset == [CTAPStatus.ok.rawValue])
        let afterReset = try await FileCredentialStore(directory: path)
        #expect(try await afterReset.all().credentials.isEmpty)
        #expect(try await afterReset.serializedLargeBlobArray() == LargeBlobArray.empty.serialized)
    }
}
