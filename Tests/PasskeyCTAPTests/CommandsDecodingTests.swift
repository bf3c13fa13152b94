import PasskeyCTAP
import Testing
import WebAuthn

/// CTAP 2.1 §8: every malformed message answers its status, never a crash.
@Suite struct CommandsDecodingTests {
    let fixture = CommandsFixture()

    @Test func statusesAreNamedAsCTAPNamesThem() {
        #expect(
            CTAPStatus.invalidCBOR.rawValue == 0x12 && CTAPStatus.invalidCBOR.description == "CTAP2_ERR_INVALID_CBOR")
        #expect(CTAPStatus.largeBlobStorageFull.rawValue == 0x18 && CTAPStatus.integrityFailure.rawValue == 0x3D)
        #expect(CTAPStatus(rawValue: 0xF3).description == "CTAP status 0xF3")
    }

    @Test func anEmptyMessageIsInvalidLength() async throws {
        #expect(try await fixture.send([]).status == .invalidLength)
    }

    @Test(arguments: [0x03, 0x05, 0x09, 0x40, 0xFF] as [UInt8])
    func anUnimplementedCommandIsInvalidCommand(command: UInt8) async throws {
        #expect(try await fixture.send([command]).status == .invalidCommand)
    }

    @Test func getInfoWithParametersIsInvalidLength() async throws {
        #expect(try await fixture.send([0x04, 0xA0]).status == .invalidLength)
    }

    /// Each is well-formed CBOR in a form CTAP2 canonical CBOR forbids, or not CBOR at all.
    @Test(
        arguments: [
            [0xA1, 0x18, 0x01, 0x01],  // key 1 in two bytes
            [0xA2, 0x02, 0x01, 0x01, 0x01],  // keys out of order
            [0xBF, 0x01, 0x01, 0xFF],  // indefinite-length map
            [0xA1, 0x01, 0x5F, 0x41, 0x00, 0xFF],  // indefinite-length byte string
            [0xA1, 0x01],  // truncated
            [0xA1, 0x01, 0x01, 0x00],  // trailing byte
            [0xA1, 0x01, 0x62, 0xC3, 0x28],  // text that is not UTF-8
            [0xA2, 0x01, 0x01, 0x01, 0x02],  // duplicate key
            [0xFF],  // a break with nothing to end
        ] as [[UInt8]])
    func nonCanonicalOrMalformedCBORIsInvalidCBOR(parameters: [UInt8]) async throws {
        for command in [CTAPCommand.makeCredential, .getAssertion] {
            #expect(try await fixture.send([command.rawValue] + parameters).status == .invalidCBOR)
        }
    }

    @Test func tooDeepNestingIsInvalidCBOR() async throws {
        var item: CBOR = 1
        for _ in 0..<20 { item = [item] }
        #expect(try await fixture.send(.getAssertion, [1: item]).status == .invalidCBOR)
    }

    @Test func parametersThatAreNotAMapAreUnexpectedType() async throws {
        #expect(try await fixture.send(.makeCredential, [1, 2]).status == .cborUnexpectedType)
        #expect(try await fixture.send(.getAssertion, ["rpId": "example.org"]).status == .cborUnexpectedType)
    }

    @Test func noParametersIsMissingParameter() async throws {
        #expect(try await fixture.send([CTAPCommand.makeCredential.rawValue]).status == .missingParameter)
        #expect(try await fixture.send([CTAPCommand.getAssertion.rawValue]).status == .missingParameter)
    }

    @Test func everyStrictPrefixOfAValidRequestFailsWithoutCrashing() async throws {
        let request = CBOR.map(CommandsFixture.makeCredential(clientDataHash: Array(repeating: 7, count: 32)))
        let bytes = [CTAPCommand.makeCredential.rawValue] + request.encoded()
        for length in 1..<bytes.count {
            let status = try await fixture.send(Array(bytes.prefix(length))).status
            #expect(status == .invalidCBOR || status == .missingParameter, "prefix \(length): \(status)")
        }
    }

    /// Every single-byte change of a valid request gets an answer: a status alone, or `CTAP2_OK`
    /// with a canonical CBOR map — never a trap, never a hang.
    @Test(arguments: [CTAPCommand.makeCredential, .getAssertion])
    func everyOneByteCorruptionIsAnswered(command: CTAPCommand) async throws {
        let hash = [UInt8](repeating: 7, count: 32)
        let parameters: CBOR =
            command == .makeCredential
            ? .map(CommandsFixture.makeCredential(clientDataHash: hash))
            : [1: .text(CommandsFixture.rpID), 2: .bytes(hash), 3: [["id": .bytes([1, 2]), "type": "public-key"]]]
        let bytes = [command.rawValue] + parameters.encoded()
        for index in bytes.indices.dropFirst() {
            for flip in [0x01, 0x20, 0x80] as [UInt8] {
                var corrupted = bytes
                corrupted[index] ^= flip
                let answer = await fixture.device.handle(corrupted, context: CTAPTransaction(channel: 1))
                let status = try #require(answer.first)
                if status == CTAPStatus.ok.rawValue {
                    let body = try CBOR(decoding: answer.dropFirst())
                    #expect(body.mapValue != nil && body.encoded() == Array(answer.dropFirst()))
                } else {
                    #expect(answer.count == 1)
                }
            }
        }
    }
}
