import Dispatch
import Glibc
import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

@testable import PasskeyCTAP

/// The kernel's side of `/dev/uhid`, played on one end of a `SOCK_SEQPACKET` pair: like the node,
/// it keeps each event whole. Reads wait a minute at most, so a device that never answers fails the
/// test instead of hanging it.
private final class FakeKernel: Sendable {
    let kernel: Int32
    let device: Int32
    private let queue = DispatchQueue(label: "uhid-fake-kernel")

    init() throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &ends) == 0)
        kernel = ends[0]
        device = ends[1]
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(kernel, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(kernel)
        close(device)
    }

    func send(_ event: UHIDEvent) {
        let bytes = event.bytes
        let sent = bytes.withUnsafeBytes { Glibc.send(kernel, $0.baseAddress, $0.count, 0) }
        #expect(sent == UHIDEvent.size)
    }

    /// A host writes a report to the hidraw node: its report number 0, then the 64 bytes.
    func write(_ message: CTAPHIDMessage) {
        for packet in message.packets { send(.output(data: [0] + packet.bytes, reportType: UHIDEvent.outputReport)) }
    }

    func receive() async throws -> UHIDEvent {
        let bytes = await withCheckedContinuation { done in
            queue.async {
                var buffer = [UInt8](repeating: 0, count: UHIDEvent.size + 1)
                let count = buffer.withUnsafeMutableBytes { recv(self.kernel, $0.baseAddress, $0.count, 0) }
                done.resume(returning: Array(buffer.prefix(max(count, 0))))
            }
        }
        #expect(bytes.count == UHIDEvent.size, "each event is the whole struct")
        return try UHIDEvent(bytes: bytes)
    }

    /// The next CTAPHID message a host reads, from `UHID_INPUT2` reports, keep-alives skipped.
    func read() async throws -> CTAPHIDMessage {
        while true {
            guard case .input2(let report) = try await receive() else { continue }
            let first = try CTAPHIDPacket(bytes: report)
            guard case .initialization(let command, let length) = first.kind else { continue }
            var payload = Array(first.data.prefix(length))
            while payload.count < length {
                guard case .input2(let next) = try await receive() else { continue }
                payload += try CTAPHIDPacket(bytes: next).data.prefix(length - payload.count)
            }
            if command != CTAPHIDCommand.keepAlive.rawValue {
                return CTAPHIDMessage(channel: first.channel, command: command, payload: payload)
            }
        }
    }
}

/// `passkey device --uhid`'s transport over a stand-in for `/dev/uhid` (this machine has none; the
/// real node is Tests/Interop/test_uhid.py's).
@Suite(.temporaryDirectory) struct UHIDDeviceTests {
    @Test func createsServesAndDestroysTheDevice() async throws {
        let kernel = try FakeKernel()
        let uhid = CTAPHIDUHIDDevice(
            device: CTAPHIDDevice(
                handler: CTAPDevice(
                    authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .securityKey)),
                messageTimeout: .seconds(60)))
        let descriptor = kernel.device
        let serving = Task { try await uhid.serve(descriptor) }

        guard case .create2(let created) = try await kernel.receive() else {
            Issue.record("the first event is UHID_CREATE2")
            return
        }
        #expect(created.reportDescriptor == CTAPHIDUHIDDevice.reportDescriptor && created.name == "SoftPasskey")
        kernel.send(.start(flags: 0))
        kernel.send(.open)

        let nonce: [UInt8] = [8, 7, 6, 5, 4, 3, 2, 1]
        kernel.write(CTAPHIDMessage(channel: CTAPHIDDevice.broadcastChannel, command: .initialize, payload: nonce))
        let initialized = try await kernel.read()
        #expect(
            initialized.command == CTAPHIDCommand.initialize.rawValue && Array(initialized.payload.prefix(8)) == nonce)
        let channel = initialized.payload[8..<12].reduce(0) { $0 << 8 | UInt32($1) }

        // A host asking for a feature report gets EIO at once, not the kernel's timeout.
        kernel.send(.getReport(id: 41, reportNumber: 0, reportType: 0))
        #expect(try await kernel.receive() == .getReportReply(id: 41, error: UInt16(EIO), data: []))
        kernel.send(.setReport(id: 42, reportNumber: 0, reportType: 0, data: [1]))
        #expect(try await kernel.receive() == .setReportReply(id: 42, error: UInt16(EIO)))

        // A report without its report number is no report of this device: nothing answers it.
        kernel.send(
            .output(
                data: CTAPHIDMessage(channel: channel, command: .ping, payload: [1]).packets[0].bytes, reportType: 1))
        kernel.write(CTAPHIDMessage(channel: channel, command: .cbor, payload: [0x04]))
        let info = try await kernel.read()
        #expect(info.channel == channel && info.command == CTAPHIDCommand.cbor.rawValue && info.payload.first == 0x00)
        let ping = CTAPHIDMessage(channel: channel, command: .ping, payload: (0..<200).map { UInt8($0) })
        kernel.write(ping)
        #expect(try await kernel.read() == ping, "a message of several reports each way")

        serving.cancel()
        #expect(try await kernel.receive() == .destroy, "stopping unplugs the device")
        try await serving.value
    }

    @Test func aNodeThatTakesNoEventIsAnError() async throws {
        // The reading end of a pipe: UHID_CREATE2 cannot be written, and serving stops there.
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        let uhid = CTAPHIDUHIDDevice(device: CTAPHIDDevice(handler: EchoHandler()))
        let error = await #expect(throws: CTAPHIDTransportError.self) { try await uhid.serve(ends[0]) }
        #expect(error?.operation == "write")
    }

    @Test func aMissingNodeSaysHowToGetOne() async throws {
        let path = try TemporaryDirectory.current.appending("uhid")
        let uhid = CTAPHIDUHIDDevice(device: CTAPHIDDevice(handler: EchoHandler()), path: path)
        let error = await #expect(throws: CTAPHIDTransportError.self) { try await uhid.run() }
        #expect(error?.operation == "open")
        #expect(error?.description.contains("modprobe uhid") == true)
    }

    @Test func aNodeThatRefusesTheDeviceIsAnError() async throws {
        // A directory opens for reading only: the same path through open(2) as a node that refuses.
        let path = try TemporaryDirectory.current.path
        let uhid = CTAPHIDUHIDDevice(device: CTAPHIDDevice(handler: EchoHandler()), path: path)
        let error = await #expect(throws: CTAPHIDTransportError.self) { try await uhid.run() }
        #expect(error?.description.hasPrefix("open: \(path): ") == true)
    }
}
