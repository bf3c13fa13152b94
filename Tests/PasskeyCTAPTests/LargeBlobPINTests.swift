import PasskeyAuthenticator
import PasskeyCTAP
import Testing
import WebAuthn

/// authenticatorLargeBlobs (CTAP 2.1 §6.10.2) once a PIN is set: every `set` fragment needs a
/// pinUvAuthToken with the `lbw` permission over `32 × 0xff ‖ h'0c00' ‖ uint32LE(offset) ‖
/// SHA-256(fragment)`; `get` needs none.
@Suite struct LargeBlobPINTests {
    static let pin = "123456"

    /// The message a set fragment's pinUvAuthParam authenticates.
    static func message(offset: UInt32, _ fragment: [UInt8]) -> [UInt8] {
        [UInt8](repeating: 0xFF, count: 32) + [0x0C, 0x00]
            + [UInt8(offset & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset >> 16 & 0xFF), UInt8(offset >> 24)]
            + SHA256Digest.hash(fragment)
    }

    /// A set fragment's request, authorized by `token` when given.
    static func set(
        _ fragment: [UInt8], offset: Int, length: Int? = nil, token: PINClient.Token?, messageOffset: Int? = nil
    ) -> CBOR {
        var request: [CBOR: CBOR] = [2: .bytes(fragment), 3: CBOR(offset)]
        if let length {
            request[4] = CBOR(length)
        }
        token?.authorize(
            &request, message(offset: UInt32(messageOffset ?? offset), fragment), paramKey: 5, protocolKey: 6)
        return .map(request)
    }

    @Test(arguments: [PINUVAuthProtocol.one, .two])
    func aTokenWithLargeBlobWriteWritesTheArray(pinUVAuthProtocol: PINUVAuthProtocol) async throws {
        let fixture = CommandsFixture()
        let client = PINClient(device: fixture.device, pinUVAuthProtocol)
        #expect(try await client.setPIN(Self.pin) == .ok)
        let token = try await client.token(Self.pin, [.largeBlobWrite])
        let serialized = LargeBlobCommandTests.array(count: 300)
        let head = Array(serialized.prefix(200))
        let tail = Array(serialized.dropFirst(200))
        #expect(try await fixture.send(.largeBlobs, Self.set(head, offset: 0, length: 300, token: token)).status == .ok)
        #expect(try await fixture.send(.largeBlobs, Self.set(tail, offset: 200, token: token)).status == .ok)
        #expect(try await LargeBlobCommandTests.read(fixture) == serialized)
    }

    @Test func withoutAValidTokenNothingIsWritten() async throws {
        let fixture = CommandsFixture()
        let client = PINClient(device: fixture.device)
        #expect(try await client.setPIN(Self.pin) == .ok)
        let serialized = LargeBlobCommandTests.array(count: 64)
        #expect(
            try await fixture.send(.largeBlobs, Self.set(serialized, offset: 0, length: 64, token: nil)).status
                == .pinUVAuthTokenRequired)
        let withoutPermission = try await client.token(Self.pin, [.credentialManagement])
        #expect(
            try await fixture.send(.largeBlobs, Self.set(serialized, offset: 0, length: 64, token: withoutPermission))
                .status == .pinAuthInvalid)
        let token = try await client.token(Self.pin, [.largeBlobWrite])
        #expect(
            try await fixture.send(
                .largeBlobs, Self.set(serialized, offset: 0, length: 64, token: token, messageOffset: 1)
            ).status == .pinAuthInvalid)
        #expect(try await LargeBlobCommandTests.read(fixture) == LargeBlobArray.empty.serialized)
    }

    @Test func readingNeedsNoToken() async throws {
        let fixture = CommandsFixture()
        #expect(try await PINClient(device: fixture.device).setPIN(Self.pin) == .ok)
        #expect(try await LargeBlobCommandTests.read(fixture) == LargeBlobArray.empty.serialized)
    }
}
