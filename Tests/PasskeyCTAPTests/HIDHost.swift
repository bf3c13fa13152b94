import Testing

@testable import PasskeyCTAP

/// A host on the far side of a ``CTAPHIDDevice``: sends messages as packets and reassembles what
/// comes back, as a client's HID layer does (python-fido2's `CtapHidDevice`).
struct HIDHost {
    let device: CTAPHIDDevice
    private let continuation: AsyncStream<[UInt8]>.Continuation
    private var reports: AsyncStream<[UInt8]>.Iterator

    init(_ device: CTAPHIDDevice) {
        self.device = device
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        self.continuation = continuation
        reports = stream.makeAsyncIterator()
    }

    /// Where the device's answers to this host go.
    var reply: CTAPHIDDevice.Reply {
        let continuation = continuation
        return { reports in
            for report in reports { continuation.yield(report) }
        }
    }

    /// Sends one report as it is.
    func send(report: [UInt8]) async {
        await device.receive(report, reply: reply)
    }

    /// Sends some packets.
    func send(_ packets: some Sequence<CTAPHIDPacket>) async {
        for packet in packets { await send(report: packet.bytes) }
    }

    /// Sends a whole message.
    func send(_ message: CTAPHIDMessage) async {
        await send(message.packets)
    }

    /// The next message the device sends this host, reassembled.
    mutating func receive() async throws -> CTAPHIDMessage {
        let first = try CTAPHIDPacket(bytes: try #require(await reports.next()))
        guard case .initialization(let command, let length) = first.kind else {
            throw HostError(reason: "a continuation packet came first")
        }
        var payload = Array(first.data.prefix(length))
        var sequence: UInt8 = 0
        while payload.count < length {
            let packet = try CTAPHIDPacket(bytes: try #require(await reports.next()))
            guard packet.channel == first.channel, packet.kind == .continuation(sequence: sequence) else {
                throw HostError(reason: "packet out of order")
            }
            payload += packet.data.prefix(length - payload.count)
            sequence += 1
        }
        return CTAPHIDMessage(channel: first.channel, command: command, payload: payload)
    }

    /// Sends a message and returns the next one that is not a keep-alive.
    mutating func transact(_ message: CTAPHIDMessage) async throws -> CTAPHIDMessage {
        await send(message)
        var answer = try await receive()
        while answer.command == CTAPHIDCommand.keepAlive.rawValue { answer = try await receive() }
        return answer
    }

    /// Allocates a channel with `CTAPHID_INIT` on the broadcast channel.
    mutating func allocate() async throws -> UInt32 {
        let nonce: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let answer = try await transact(
            CTAPHIDMessage(channel: CTAPHIDDevice.broadcastChannel, command: .initialize, payload: nonce))
        guard answer.command == CTAPHIDCommand.initialize.rawValue, answer.payload.count == 17 else {
            throw HostError(reason: "no INIT response")
        }
        return answer.payload[8..<12].reduce(0) { $0 << 8 | UInt32($1) }
    }

    struct HostError: Error {
        let reason: String
    }
}

extension CTAPHIDMessage {
    /// The error code of a `CTAPHID_ERROR` message, or nil.
    var errorCode: CTAPHIDErrorCode? {
        guard command == CTAPHIDCommand.error.rawValue, payload.count == 1 else { return nil }
        return CTAPHIDErrorCode(rawValue: payload[0])
    }
}
