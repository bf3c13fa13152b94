import PasskeyAuthenticator
import Testing

@testable import PasskeyCTAP

/// The CTAPHID device (CTAP 2.1 §11.2): channels, commands, every error, busy channels, timeouts,
/// cancel and keep-alive.
@Suite struct HIDDeviceTests {
    /// A host of a device whose command layer is the real one, with a user who never shows
    /// presence: commands that need it wait, with keep-alives, until the client cancels. The wait
    /// outlasts any test (not the 30 s default), so a slow machine still sees the cancel answered,
    /// never `CTAP2_ERR_USER_ACTION_TIMEOUT`.
    private func host(messageTimeout: Duration = .seconds(60), clock: CTAPClock = .continuous) -> HIDHost {
        let absent = UserPresence.ask(timeout: .seconds(3600)) { _ in
            try? await Task.sleep(for: .seconds(3600))
            return false
        }
        let commands = CTAPDevice(
            authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .securityKey),
            presence: absent)
        return HIDHost(CTAPHIDDevice(handler: commands, messageTimeout: messageTimeout, clock: clock))
    }

    private static func ping(_ channel: UInt32, _ payload: [UInt8] = [1, 2, 3]) -> CTAPHIDMessage {
        CTAPHIDMessage(channel: channel, command: .ping, payload: payload)
    }

    @Test func initAllocatesFreshChannelsAndEchoesTheNonce() async throws {
        var host = host()
        let nonce: [UInt8] = [9, 8, 7, 6, 5, 4, 3, 2]
        let answer = try await host.transact(
            CTAPHIDMessage(channel: CTAPHIDDevice.broadcastChannel, command: .initialize, payload: nonce))
        #expect(answer.channel == CTAPHIDDevice.broadcastChannel)
        #expect(answer.command == CTAPHIDCommand.initialize.rawValue)
        #expect(answer.payload.count == 17)
        #expect(Array(answer.payload.prefix(8)) == nonce)
        #expect(answer.payload[12] == 2, "CTAPHID protocol version 2")
        #expect(answer.payload[16] == 0x05, "WINK | CBOR, and MSG: the security key speaks U2F")
        let first = answer.payload[8..<12].reduce(0) { $0 << 8 | UInt32($1) }
        let second = try await host.allocate()
        #expect(first != 0 && first != CTAPHIDDevice.broadcastChannel && second != first)
    }

    @Test func initOnAChannelResynchronizesIt() async throws {
        var host = host()
        let channel = try await host.allocate()
        // Half a message, then INIT on its channel: the message is dropped, the channel kept.
        await host.send(Self.ping(channel, [UInt8](repeating: 7, count: 100)).packets.prefix(1))
        let nonce: [UInt8] = [1, 1, 2, 3, 5, 8, 13, 21]
        let answer = try await host.transact(CTAPHIDMessage(channel: channel, command: .initialize, payload: nonce))
        #expect(answer.channel == channel && Array(answer.payload.prefix(8)) == nonce)
        #expect(answer.payload[8..<12].reduce(0) { $0 << 8 | UInt32($1) } == channel)
        // The rest of the dropped message is a spurious continuation: ignored.
        await host.send(Self.ping(channel, [UInt8](repeating: 7, count: 100)).packets.dropFirst())
        #expect(try await host.transact(Self.ping(channel)) == Self.ping(channel))
    }

    @Test(arguments: [0, 7, 9, 57])
    func initWithoutAnEightByteNonceIsInvalidLength(length: Int) async throws {
        var host = host()
        let answer = try await host.transact(
            CTAPHIDMessage(
                channel: CTAPHIDDevice.broadcastChannel, command: .initialize,
                payload: [UInt8](repeating: 1, count: length)))
        #expect(answer.errorCode == .invalidLength)
    }

    @Test(arguments: [0, 1, 57, 58, 1000, 7609])
    func pingEchoesAcrossPackets(length: Int) async throws {
        var host = host()
        let channel = try await host.allocate()
        let message = Self.ping(channel, (0..<length).map { UInt8(truncatingIfNeeded: $0) })
        #expect(try await host.transact(message) == message)
    }

    @Test func aMessageAboveTheLimitIsInvalidLength() async throws {
        var host = host()
        let channel = try await host.allocate()
        let first = CTAPHIDPacket(
            channel: channel, kind: .initialization(command: CTAPHIDCommand.ping.rawValue, length: 7610), data: [])
        await host.send([first])
        #expect(try await host.receive().errorCode == .invalidLength)
    }

    @Test func channelsNeverAllocatedAreInvalid() async throws {
        var host = host()
        let allocated = try await host.allocate()
        for channel in [0, allocated + 1, 0x1234_5678, CTAPHIDDevice.broadcastChannel] {
            let answer = try await host.transact(Self.ping(channel))
            #expect(answer.errorCode == .invalidChannel && answer.channel == channel)
        }
        let init0 = try await host.transact(
            CTAPHIDMessage(channel: 0, command: .initialize, payload: [1, 2, 3, 4, 5, 6, 7, 8]))
        #expect(init0.errorCode == .invalidChannel)
    }

    @Test(arguments: [
        CTAPHIDCommand.keepAlive.rawValue, CTAPHIDCommand.error.rawValue, 0x20, 0x7F,
    ])
    func unknownOrHostlessCommandsAreInvalid(command: UInt8) async throws {
        var host = host()
        let channel = try await host.allocate()
        let answer = try await host.transact(CTAPHIDMessage(channel: channel, command: command, payload: [0, 1]))
        #expect(answer.errorCode == .invalidCommand && answer.channel == channel)
    }

    @Test func aContinuationOutOfOrderIsInvalidSequence() async throws {
        var host = host()
        let channel = try await host.allocate()
        let packets = Self.ping(channel, [UInt8](repeating: 3, count: 200)).packets
        await host.send([packets[0], packets[2]])
        #expect(try await host.receive().errorCode == .invalidSequence)
        // The message is gone; the device takes the next one.
        #expect(try await host.transact(Self.ping(channel)) == Self.ping(channel))
    }

    @Test func aNewMessageOnTheSameChannelMidMessageIsInvalidSequence() async throws {
        var host = host()
        let channel = try await host.allocate()
        await host.send(Self.ping(channel, [UInt8](repeating: 3, count: 200)).packets.prefix(2))
        await host.send(Self.ping(channel).packets)
        #expect(try await host.receive().errorCode == .invalidSequence)
    }

    @Test func aSpuriousContinuationIsIgnored() async throws {
        var host = host()
        let channel = try await host.allocate()
        await host.send([CTAPHIDPacket(channel: channel, kind: .continuation(sequence: 0), data: [1, 2])])
        await host.send(report: [0x01, 0x02])
        #expect(try await host.transact(Self.ping(channel)) == Self.ping(channel))
    }

    @Test func anotherChannelIsBusyWhileAMessageArrives() async throws {
        var host = host()
        let first = try await host.allocate()
        let second = try await host.allocate()
        let long = Self.ping(first, (0..<150).map { UInt8($0) })
        await host.send(long.packets.prefix(2))
        let busy = try await host.transact(Self.ping(second))
        #expect(busy.errorCode == .channelBusy && busy.channel == second)
        // A continuation on the other channel is not part of the message under way.
        await host.send([CTAPHIDPacket(channel: second, kind: .continuation(sequence: 2), data: [0])])
        await host.send(long.packets.dropFirst(2))
        #expect(try await host.receive() == long)
    }

    @Test func anUnfinishedMessageTimesOut() async throws {
        var host = host(messageTimeout: .milliseconds(50))
        let channel = try await host.allocate()
        await host.send(Self.ping(channel, [UInt8](repeating: 3, count: 100)).packets.prefix(1))
        let answer = try await host.receive()
        #expect(answer.errorCode == .messageTimeout && answer.channel == channel)
        #expect(try await host.transact(Self.ping(channel)) == Self.ping(channel))
    }

    @Test func cborGoesToTheCommandLayer() async throws {
        var host = host()
        let channel = try await host.allocate()
        let info = try await host.transact(CTAPHIDMessage(channel: channel, command: .cbor, payload: [0x04]))
        #expect(info.channel == channel && info.command == CTAPHIDCommand.cbor.rawValue)
        #expect(info.payload.first == 0x00 && info.payload.count > 57, "CTAP2_OK and getInfo's map, across packets")
        let unknown = try await host.transact(CTAPHIDMessage(channel: channel, command: .cbor, payload: [0x42]))
        #expect(unknown == CTAPHIDMessage(channel: channel, command: .cbor, payload: [0x01]))
        let empty = try await host.transact(CTAPHIDMessage(channel: channel, command: .cbor, payload: []))
        #expect(empty.errorCode == .invalidLength)
    }

    @Test func keepAlivesGoOutUntilCancelWhichIsNotAnswered() async throws {
        var host = host()
        let channel = try await host.allocate()
        let other = try await host.allocate()
        // authenticatorSelection waits for presence.
        await host.send(CTAPHIDMessage(channel: channel, command: .cbor, payload: [0x0B]))
        var statuses: [[UInt8]] = []
        while statuses.last != [2] {
            let keepAlive = try await host.receive()
            #expect(keepAlive.channel == channel && keepAlive.command == CTAPHIDCommand.keepAlive.rawValue)
            statuses.append(keepAlive.payload)
            try #require(statuses.count < 10, "UPNEEDED within a second")
        }
        #expect(statuses.allSatisfy { $0 == [1] || $0 == [2] }, "PROCESSING until the command layer says UPNEEDED")
        // Busy while it runs: other channels, and the same channel for anything but CANCEL and INIT.
        await host.send(Self.ping(other))
        await host.send(Self.ping(channel))
        // CANCEL on another channel cancels nothing.
        await host.send(CTAPHIDMessage(channel: other, command: .cancel))
        var busy: [CTAPHIDMessage] = []
        while busy.count < 2 {
            let message = try await host.receive()
            if message.command != CTAPHIDCommand.keepAlive.rawValue { busy.append(message) }
        }
        #expect(busy.map(\.errorCode) == [.channelBusy, .channelBusy])
        #expect(busy.map(\.channel) == [other, channel])
        // CANCEL: the handler answers CTAP2_ERR_KEEPALIVE_CANCEL and CANCEL itself gets nothing.
        await host.send(CTAPHIDMessage(channel: channel, command: .cancel))
        var answer = try await host.receive()
        while answer.command == CTAPHIDCommand.keepAlive.rawValue { answer = try await host.receive() }
        #expect(answer == CTAPHIDMessage(channel: channel, command: .cbor, payload: [0x2D]))
        #expect(try await host.transact(Self.ping(other)) == Self.ping(other))
    }

    @Test func winkAnswersEmpty() async throws {
        var host = host()
        let channel = try await host.allocate()
        #expect(
            try await host.transact(CTAPHIDMessage(channel: channel, command: .wink))
                == CTAPHIDMessage(channel: channel, command: .wink))
        let long = try await host.transact(CTAPHIDMessage(channel: channel, command: .wink, payload: [1]))
        #expect(long.errorCode == .invalidLength)
    }

    @Test func lockKeepsOtherChannelsOutUntilReleased() async throws {
        var host = host()
        let owner = try await host.allocate()
        let other = try await host.allocate()
        let locked = try await host.transact(CTAPHIDMessage(channel: owner, command: .lock, payload: [10]))
        #expect(locked == CTAPHIDMessage(channel: owner, command: .lock))
        #expect(try await host.transact(Self.ping(other)).errorCode == .channelBusy)
        // CANCEL from the other channel is not answered, even under the lock.
        await host.send(CTAPHIDMessage(channel: other, command: .cancel))
        #expect(try await host.transact(Self.ping(owner)) == Self.ping(owner))
        _ = try await host.transact(CTAPHIDMessage(channel: owner, command: .lock, payload: [0]))
        #expect(try await host.transact(Self.ping(other)) == Self.ping(other))
    }

    @Test func aLockExpires() async throws {
        let time = ManualClock()
        var host = host(clock: time.clock)
        let owner = try await host.allocate()
        let other = try await host.allocate()
        _ = try await host.transact(CTAPHIDMessage(channel: owner, command: .lock, payload: [1]))
        time.advance(by: .milliseconds(999))
        #expect(try await host.transact(Self.ping(other)).errorCode == .channelBusy)
        time.advance(by: .milliseconds(1))
        #expect(try await host.transact(Self.ping(other)) == Self.ping(other))
    }

    @Test(arguments: [
        ([UInt8](), CTAPHIDErrorCode.invalidLength), ([1, 2], .invalidLength), ([11], .invalidParameter),
    ])
    func aBadLockIsRefused(payload: [UInt8], code: CTAPHIDErrorCode) async throws {
        var host = host()
        let channel = try await host.allocate()
        #expect(
            try await host.transact(CTAPHIDMessage(channel: channel, command: .lock, payload: payload)).errorCode
                == code)
    }

    @Test func errorCodesAreCTAPs() {
        let codes: [CTAPHIDErrorCode: UInt8] = [
            .invalidCommand: 0x01, .invalidParameter: 0x02, .invalidLength: 0x03, .invalidSequence: 0x04,
            .messageTimeout: 0x05, .channelBusy: 0x06, .lockRequired: 0x0A, .invalidChannel: 0x0B, .other: 0x7F,
        ]
        for (code, byte) in codes { #expect(code.rawValue == byte) }
    }
}
