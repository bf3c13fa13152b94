import Dispatch
import Glibc
import PasskeyAuthenticator
import TestSupport
import Testing

@testable import PasskeyCTAP

/// A client of ``CTAPHIDSocketServer``: blocking socket calls, each on a queue of its own, with a
/// one-minute receive timeout so that a device that never answers fails the test.
private final class SocketClient: Sendable {
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "hid-socket-client")

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        try #require(descriptor >= 0 && connected == 0, "connect \(path): \(String(cString: strerror(errno)))")
    }

    deinit { close(descriptor) }

    func send(_ message: CTAPHIDMessage) {
        for packet in message.packets {
            let sent = packet.bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
            #expect(sent == 64)
        }
    }

    /// The next report, or nil at the end of the stream or after the timeout.
    func receiveReport() async -> [UInt8]? {
        await withCheckedContinuation { done in
            queue.async {
                var report = [UInt8](repeating: 0, count: 64)
                let count = report.withUnsafeMutableBytes {
                    recv(self.descriptor, $0.baseAddress, 64, Int32(MSG_WAITALL))
                }
                done.resume(returning: count == 64 ? report : nil)
            }
        }
    }

    /// The next message that is not a keep-alive, reassembled.
    func receive() async throws -> CTAPHIDMessage {
        while true {
            let first = try CTAPHIDPacket(bytes: try #require(await receiveReport()))
            guard case .initialization(let command, let length) = first.kind else { continue }
            var payload = Array(first.data.prefix(length))
            while payload.count < length {
                payload += try CTAPHIDPacket(bytes: try #require(await receiveReport())).data.prefix(
                    length - payload.count)
            }
            if command != CTAPHIDCommand.keepAlive.rawValue {
                return CTAPHIDMessage(channel: first.channel, command: command, payload: payload)
            }
        }
    }

    func transact(_ message: CTAPHIDMessage) async throws -> CTAPHIDMessage {
        send(message)
        return try await receive()
    }

    func allocate() async throws -> UInt32 {
        let answer = try await transact(
            CTAPHIDMessage(
                channel: CTAPHIDDevice.broadcastChannel, command: .initialize, payload: [1, 2, 3, 4, 5, 6, 7, 8]))
        return answer.payload[8..<12].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// `passkey device --socket`'s transport: 64-byte reports over a Unix stream socket, one device
/// shared by the connections.
@Suite(.temporaryDirectory) struct HIDSocketTests {
    /// A device whose messages may take a minute between packets: the tests run beside the whole
    /// suite on two cores, and a packet late under that load is no error of the socket's.
    private static func device() -> CTAPHIDDevice {
        CTAPHIDDevice(
            handler: CTAPDevice(
                authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .securityKey)),
            messageTimeout: .seconds(60))
    }

    @Test func connectionsShareTheDeviceOnChannelsOfTheirOwn() async throws {
        let path = try TemporaryDirectory.current.appending("device.sock")
        let server = CTAPHIDSocketServer(device: Self.device(), path: path)
        let (started, ready) = AsyncStream.makeStream(of: Void.self)
        let serving = Task { try await server.run { ready.yield() } }
        for await _ in started { break }

        let first = try SocketClient(path: path)
        let second = try SocketClient(path: path)
        let one = try await first.allocate()
        let two = try await second.allocate()
        #expect(one != two)
        let ping = CTAPHIDMessage(channel: one, command: .ping, payload: (0..<300).map { UInt8($0 & 0xFF) })
        #expect(try await first.transact(ping) == ping)
        let info = try await second.transact(CTAPHIDMessage(channel: two, command: .cbor, payload: [0x04]))
        #expect(info.channel == two && info.command == CTAPHIDCommand.cbor.rawValue && info.payload.first == 0x00)
        // The first connection saw nothing of the second's traffic: its next message is its own.
        let own = CTAPHIDMessage(channel: one, command: .ping, payload: [7])
        #expect(try await first.transact(own) == own)

        serving.cancel()
        try await serving.value
        #expect(await first.receiveReport() == nil, "stopping closes the connections")
        #expect(access(path, F_OK) != 0, "stopping removes the socket file")
    }

    @Test func aPathInUseIsRefused() async throws {
        let path = try TemporaryDirectory.current.write("taken", "")
        let server = CTAPHIDSocketServer(device: Self.device(), path: path)
        let error = await #expect(throws: CTAPHIDTransportError.self) { try await server.run() }
        #expect(error?.operation == "bind")
        #expect(access(path, F_OK) == 0, "the file that was there stays")
    }

    @Test func aPathTooLongForASocketIsRefused() async throws {
        let path = try TemporaryDirectory.current.appending(String(repeating: "d", count: 120))
        let server = CTAPHIDSocketServer(device: Self.device(), path: path)
        let error = await #expect(throws: CTAPHIDTransportError.self) { try await server.run() }
        #expect(error?.reason.hasPrefix("a socket path has 1 to 107 bytes") == true)
    }
}
