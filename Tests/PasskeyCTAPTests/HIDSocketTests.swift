import Glibc
import PasskeyAuthenticator
import TestSupport
import Testing

@testable import PasskeyCTAP

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

        let first = try CTAPHIDSocketClient(path: path)
        let second = try CTAPHIDSocketClient(path: path)
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
