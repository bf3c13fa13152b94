import BlockingIO
import Glibc
import Synchronization
import SystemPackage

/// A CTAPHID host on a Unix socket: the other end of ``CTAPHIDSocketServer`` (CTAP 2.1 §11.2.4),
/// for the tests and `passkey-bench ctap` (libfido2 is the real host).
///
/// Messages go out cut into 64-byte reports, all of a message's in one write, and come back put
/// together, keep-alives skipped; a read takes every report that is there. The socket calls block, so they run on a queue of their own (``BlockingExecutor``), a whole
/// exchange in one hop (``transact(_:)``); reads give up after the timeout, so that a device that
/// never answers fails its caller instead of holding it.
package final class CTAPHIDSocketClient: Sendable {
    private let descriptor: Int32
    private let path: String
    private let executor = BlockingExecutor(label: "ctaphid-socket-client")
    /// Bytes read and not yet taken as reports.
    private let unread = Mutex<[UInt8]>([])

    /// Connects to the socket at `path`.
    ///
    /// - Parameters:
    ///   - path: the socket's path.
    ///   - timeout: how long a read waits for a report.
    /// - Throws: ``CTAPHIDTransportError`` `socket` or `connect`.
    package init(path: String, timeout: Duration = .seconds(60)) throws(CTAPHIDTransportError) {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Self.failure("socket", path) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let error = Self.failure("connect", path)
            close(descriptor)
            throw error
        }
        let (seconds, attoseconds) = timeout.components
        var wait = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Takes a channel of its own with `CTAPHID_INIT` on the broadcast channel (§11.2.9.1.3).
    ///
    /// - Returns: the channel the device allocated.
    package func allocate() async throws(CTAPHIDTransportError) -> UInt32 {
        let nonce: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let answer = try await transact(
            CTAPHIDMessage(channel: CTAPHIDDevice.broadcastChannel, command: .initialize, payload: nonce))
        guard answer.command == CTAPHIDCommand.initialize.rawValue, answer.payload.count >= 17,
            Array(answer.payload.prefix(8)) == nonce
        else {
            throw CTAPHIDTransportError("read", reason: "\(path): no CTAPHID_INIT answer")
        }
        return answer.payload[8..<12].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Sends `message` and returns the next message that is not a keep-alive, in one hop.
    package func transact(_ message: CTAPHIDMessage) async throws(CTAPHIDTransportError) -> CTAPHIDMessage {
        try await executor.run { () throws(CTAPHIDTransportError) in
            try self.write(message)
            return try self.readMessage()
        }
    }

    /// The next report, or nil at the end of the stream, after the timeout, or on a failure.
    package func receiveReport() async -> [UInt8]? {
        await executor.run { self.readReport() }
    }

    private func write(_ message: CTAPHIDMessage) throws(CTAPHIDTransportError) {
        let reports = Array(message.packets.map(\.bytes).joined())
        var sent = 0
        while sent < reports.count {
            let count = reports.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Self.failure("send", path) }
            sent += count
        }
    }

    private func readMessage() throws(CTAPHIDTransportError) -> CTAPHIDMessage {
        while true {
            let first = try packet()
            guard case .initialization(let command, let length) = first.kind else { continue }
            var payload = Array(first.data.prefix(length))
            while payload.count < length {
                payload += try packet().data.prefix(length - payload.count)
            }
            if command != CTAPHIDCommand.keepAlive.rawValue {
                return CTAPHIDMessage(channel: first.channel, command: command, payload: payload)
            }
        }
    }

    private func packet() throws(CTAPHIDTransportError) -> CTAPHIDPacket {
        guard let report = readReport() else {
            throw CTAPHIDTransportError("recv", reason: "\(path): the device closed the socket or did not answer")
        }
        do {
            return try CTAPHIDPacket(bytes: report)
        } catch {
            throw CTAPHIDTransportError("recv", reason: "\(path): not a CTAPHID report")
        }
    }

    /// The next report: one read before, or what the next read brings (every report there).
    private func readReport() -> [UInt8]? {
        unread.withLock { unread in
            var buffer = [UInt8](repeating: 0, count: CTAPHIDPacket.size * 16)
            while unread.count < CTAPHIDPacket.size {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return nil }
                unread += buffer.prefix(count)
            }
            defer { unread.removeFirst(CTAPHIDPacket.size) }
            return Array(unread.prefix(CTAPHIDPacket.size))
        }
    }

    /// The failed call `operation` on `path`, with `errno`.
    private static func failure(_ operation: String, _ path: String) -> CTAPHIDTransportError {
        CTAPHIDTransportError(SystemCallError(operation, path, Errno(rawValue: errno)))
    }
}
