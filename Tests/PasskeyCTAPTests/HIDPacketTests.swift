import Testing

@testable import PasskeyCTAP

/// CTAPHID packets and fragmentation (CTAP 2.1 §11.2.4): 57 bytes in the initialization packet,
/// 59 per continuation packet, sequence 0…127, 7609 bytes at most.
@Suite struct HIDPacketTests {
    @Test(arguments: [0, 1, 57, 58, 116, 117, 7550, 7609])
    func fragmentsAndReassembles(length: Int) throws {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let message = CTAPHIDMessage(channel: 0x0102_0304, command: .ping, payload: payload)
        let packets = message.packets
        let continuations = max(0, length - 57 + 58) / 59
        #expect(packets.count == 1 + continuations)
        var reassembled: [UInt8] = []
        for (index, packet) in packets.enumerated() {
            let bytes = packet.bytes
            #expect(bytes.count == 64)
            #expect(bytes.prefix(4) == [1, 2, 3, 4])
            let parsed = try CTAPHIDPacket(bytes: bytes)
            #expect(parsed == packet)
            switch parsed.kind {
            case .initialization(let command, let count):
                #expect(index == 0 && command == 0x01 && count == length)
                #expect(bytes[4] == 0x81 && bytes[5] == UInt8(length >> 8) && bytes[6] == UInt8(length & 0xFF))
            case .continuation(let sequence):
                #expect(Int(sequence) == index - 1)
            }
            reassembled += parsed.data
        }
        #expect(Array(reassembled.prefix(length)) == payload)
        #expect(reassembled.dropFirst(length).allSatisfy { $0 == 0 })
    }

    @Test func theLongestMessageUsesSequence127() {
        let packets = CTAPHIDMessage(channel: 9, command: .cbor, payload: [UInt8](repeating: 0xAA, count: 7609)).packets
        #expect(packets.count == 129)
        #expect(packets.last?.kind == .continuation(sequence: 127))
        #expect(CTAPHIDMessage.maximumLength == 7609)
    }

    @Test(arguments: [0, 1, 63, 65, 128])
    func reportsOfAnotherSizeAreRefused(size: Int) {
        #expect(throws: CTAPHIDErrorCode.invalidLength) {
            try CTAPHIDPacket(bytes: [UInt8](repeating: 0x81, count: size))
        }
    }
}
