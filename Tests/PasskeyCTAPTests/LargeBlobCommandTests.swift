import PasskeyAuthenticator
import PasskeyCTAP
import Testing
import WebAuthn

/// authenticatorLargeBlobs (CTAP 2.1 §6.10) without a PIN: the array read and written in
/// fragments, checked whole, and emptied by Reset.
@Suite struct LargeBlobCommandTests {
    /// The largest fragment the device moves: maxMsgSize (7608) less 64.
    static let maxFragmentLength = 7544

    /// A serialized array holding `blob` for the credential whose largeBlobKey is `key`.
    static func array(_ blob: [UInt8], key: SecretKey) throws -> [UInt8] {
        var array = LargeBlobArray.empty
        try array.set(blob, key: key)
        return array.serialized
    }

    /// A serialized array of `count` bytes whose hash is right: one byte string, sized to fit.
    static func array(count: Int) -> [UInt8] {
        let bodies = (0..<count).lazy.map { CBOR.array([.bytes([UInt8](repeating: 0x42, count: $0))]).encoded() }
        let body = bodies.first { $0.count == count - 16 } ?? []
        return body + SHA256Digest.hash(body).prefix(16)
    }

    /// Reads the whole array with gets of `fragment` bytes.
    static func read(_ fixture: CommandsFixture, fragment: Int = maxFragmentLength) async throws -> [UInt8] {
        var serialized: [UInt8] = []
        while true {
            let (status, response) = try await fixture.send(
                .largeBlobs, [1: CBOR(fragment), 3: CBOR(serialized.count)])
            try #require(status == .ok)
            let chunk = try #require(response?[1]?.bytesValue)
            serialized += chunk
            if chunk.count < fragment { return serialized }
        }
    }

    /// Writes the array with sets of `fragment` bytes; returns each fragment's status.
    static func write(_ fixture: CommandsFixture, _ serialized: [UInt8], fragment: Int) async throws -> [CTAPStatus] {
        var statuses: [CTAPStatus] = []
        var offset = 0
        repeat {
            let chunk = Array(serialized.dropFirst(offset).prefix(fragment))
            var request: [CBOR: CBOR] = [2: .bytes(chunk), 3: CBOR(offset)]
            if offset == 0 {
                request[4] = CBOR(serialized.count)
            }
            statuses.append(try await fixture.send(.largeBlobs, .map(request)).status)
            offset += chunk.count
        } while offset < serialized.count
        return statuses
    }

    @Test func aNewDeviceHasTheEmptyArray() async throws {
        let serialized = try await Self.read(CommandsFixture())
        #expect(
            serialized == [
                0x80, 0x76, 0xBE, 0x8B, 0x52, 0x8D, 0x00, 0x75, 0xF7, 0xAA, 0xE9, 0x8D, 0x6F, 0xA5, 0x7A, 0x6D, 0x3C,
            ])
    }

    @Test(arguments: [17, 100, 7544])
    func anArrayWrittenInFragmentsReadsBackWhole(fragment: Int) async throws {
        let fixture = CommandsFixture()
        let serialized = Self.array(count: 4000)
        let statuses = try await Self.write(fixture, serialized, fragment: fragment)
        #expect(statuses.allSatisfy { $0 == .ok })
        #expect(try await Self.read(fixture, fragment: 999) == serialized)
        #expect(try await Self.read(fixture) == serialized)
    }

    @Test func aBlobWrittenOverCTAPIsTheCredentialsBlob() async throws {
        let fixture = CommandsFixture()
        let registration = try await fixture.register()
        let stored = try #require(await fixture.store.credential(id: registration.credentialID))
        let authenticator = SoftwareAuthenticator(store: fixture.store, profile: .securityKey)
        let key = try #require(await authenticator.largeBlobKey(of: stored))
        let blob = Array("a certificate, say".utf8)
        #expect(try await Self.write(fixture, Self.array(blob, key: key), fragment: 30).allSatisfy { $0 == .ok })
        #expect(try await authenticator.largeBlob(of: stored) == blob)
    }

    @Test func makeCredentialAndGetAssertionReturnTheLargeBlobKey() async throws {
        let fixture = CommandsFixture()
        let clientDataHash = CommandsFixture.clientData(.create, challenge: [1]).hash
        var request = CommandsFixture.makeCredential(clientDataHash: clientDataHash)
        request[6] = ["largeBlobKey": true]
        let made = try #require(try await fixture.send(.makeCredential, .map(request)).response)
        let key = try #require(made[5]?.bytesValue)
        #expect(key.count == 32)
        let get: CBOR = [1: .text(CommandsFixture.rpID), 2: .bytes(clientDataHash), 4: ["largeBlobKey": true]]
        let asserted = try #require(try await fixture.send(.getAssertion, get).response)
        #expect(asserted[7] == .bytes(key))
        #expect(
            try await fixture.send(.getAssertion, [1: .text(CommandsFixture.rpID), 2: .bytes(clientDataHash)])
                .response?[7] == nil)
        // The key opens what the authenticator stores for the credential.
        let stored = try #require(await fixture.store.all().credentials.first)
        let authenticator = SoftwareAuthenticator(store: fixture.store, profile: .securityKey)
        try await authenticator.setLargeBlob([7, 7, 7], of: stored)
        let array = try LargeBlobArray(serialized: try await Self.read(fixture))
        #expect(try array.blob(key: SecretKey(bytes: key)) == [7, 7, 7])
        // §12.3: the input is true or absent.
        request[6] = ["largeBlobKey": false]
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .invalidOption)
    }

    @Test func aWrongHashIsAnIntegrityFailureAndKeepsTheOldArray() async throws {
        let fixture = CommandsFixture()
        let good = Self.array(count: 64)
        _ = try await Self.write(fixture, good, fragment: 64)
        var bad = Self.array(count: 100)
        bad[10] ^= 1
        #expect(try await Self.write(fixture, bad, fragment: 60) == [.ok, .integrityFailure])
        #expect(try await Self.read(fixture) == good)
    }

    @Test func aFragmentOutOfOrderIsAnInvalidSequence() async throws {
        let fixture = CommandsFixture()
        let serialized = Self.array(count: 100)
        #expect(
            try await fixture.send(.largeBlobs, [2: .bytes(Array(serialized.prefix(50))), 3: 0, 4: 100]).status == .ok)
        let rest = CBOR.bytes(Array(serialized.dropFirst(50)))
        #expect(try await fixture.send(.largeBlobs, [2: rest, 3: 49]).status == .invalidSequence)
        #expect(try await fixture.send(.largeBlobs, [2: rest, 3: 50]).status == .ok)
        #expect(try await Self.read(fixture) == serialized)
        // Nothing is in progress once the array is kept.
        #expect(try await fixture.send(.largeBlobs, [2: rest, 3: 50]).status == .invalidSequence)
    }

    @Test func aSetMustFitTheAnnouncedLengthAndTheLimit() async throws {
        let fixture = CommandsFixture()
        let fragment = CBOR.bytes([UInt8](repeating: 1, count: 40))
        // No length with the first fragment, a length too short, or one after it.
        #expect(try await fixture.send(.largeBlobs, [2: fragment, 3: 0]).status == .invalidParameter)
        #expect(try await fixture.send(.largeBlobs, [2: fragment, 3: 0, 4: 16]).status == .invalidParameter)
        #expect(try await fixture.send(.largeBlobs, [2: fragment, 3: 0, 4: 50]).status == .ok)
        #expect(try await fixture.send(.largeBlobs, [2: fragment, 3: 40, 4: 50]).status == .invalidParameter)
        // Past the announced length.
        #expect(try await fixture.send(.largeBlobs, [2: fragment, 3: 40]).status == .invalidParameter)
        // Over maxSerializedLargeBlobArray (the security key's 4096).
        #expect(try await fixture.send(.largeBlobs, [2: fragment, 3: 0, 4: 4097]).status == .largeBlobStorageFull)
        // Over maxFragmentLength.
        let long = CBOR.bytes([UInt8](repeating: 1, count: Self.maxFragmentLength + 1))
        #expect(try await fixture.send(.largeBlobs, [2: long, 3: 0, 4: 9000]).status == .invalidLength)
    }

    @Test func aGetMustBeWellFormed() async throws {
        let fixture = CommandsFixture()
        #expect(try await fixture.send(.largeBlobs, [1: 10]).status == .invalidParameter)
        #expect(try await fixture.send(.largeBlobs, [3: 0]).status == .invalidParameter)
        #expect(try await fixture.send(.largeBlobs, [1: 10, 2: .bytes([1]), 3: 0]).status == .invalidParameter)
        #expect(try await fixture.send(.largeBlobs, [1: 10, 3: 0, 4: 17]).status == .invalidParameter)
        #expect(try await fixture.send(.largeBlobs, [1: 10, 3: 0, 5: .bytes([1]), 6: 2]).status == .invalidParameter)
        #expect(try await fixture.send(.largeBlobs, [1: 10, 3: 18]).status == .invalidParameter)
        #expect(try await fixture.send(.largeBlobs, [1: 10, 3: 17]) == (.ok, [1: .bytes([])]))
        #expect(try await fixture.send(.largeBlobs, [1: 7545, 3: 0]).status == .invalidLength)
        #expect(try await fixture.send(.largeBlobs, [1: -1, 3: 0]).status == .cborUnexpectedType)
        #expect(try await fixture.send(.largeBlobs, [1: 10, 3: .text("0")]).status == .cborUnexpectedType)
    }

    @Test func resetEmptiesTheArray() async throws {
        let fixture = CommandsFixture()
        _ = try await Self.write(fixture, Self.array(count: 64), fragment: 64)
        #expect(try await fixture.send(.reset) == (.ok, nil))
        #expect(try await Self.read(fixture) == LargeBlobArray.empty.serialized)
    }

    @Test func resetDropsAWriteInProgress() async throws {
        let fixture = CommandsFixture()
        let serialized = Self.array(count: 64)
        #expect(
            try await fixture.send(.largeBlobs, [2: .bytes(Array(serialized.prefix(32))), 3: 0, 4: 64]).status == .ok)
        #expect(try await fixture.send(.reset) == (.ok, nil))
        let rest = CBOR.bytes(Array(serialized.dropFirst(32)))
        #expect(try await fixture.send(.largeBlobs, [2: rest, 3: 32]).status == .invalidSequence)
    }

    @Test func anAuthenticatorWithoutLargeBlobsHasNoSuchCommand() async throws {
        let device = CTAPDevice(authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore()))
        let get = [CTAPCommand.largeBlobs.rawValue] + CBOR.map([1: 10, 3: 0]).encoded()
        #expect(await device.handle(get, context: CTAPTransaction(channel: 1)) == [CTAPStatus.invalidCommand.rawValue])
        let answer = await device.handle([CTAPCommand.getInfo.rawValue], context: CTAPTransaction(channel: 1))
        let info = try CBOR(decoding: answer.dropFirst())
        #expect(info[4]?["largeBlobs"] == nil)
        #expect(info[11] == nil)
    }

    @Test func getInfoAnnouncesLargeBlobs() async throws {
        let info = try #require(try await CommandsFixture().send(.getInfo).response)
        #expect(info[4]?["largeBlobs"] == true)
        #expect(info[11] == 4096)
        #expect(info[7] == 64)
        #expect(info[8] == 1023)
    }
}
