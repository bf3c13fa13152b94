import Dispatch
import Glibc
import Synchronization

/// Serves a ``CTAPHIDDevice`` on a Unix stream socket: each report exactly 64 bytes each way, with
/// no framing around it (issue 29's `passkey device --socket`), for tests and for clients that take
/// a custom transport (python-fido2's `CtapHidConnection`, libfido2's `fido_dev_set_io_functions`).
///
/// Every connection talks to the one device, as every process that opens a USB key's hidraw node
/// does; the answers to a connection's reports go back to that connection only. The device keeps
/// the transactions apart by channel (CTAP 2.1 §11.2.3).
///
/// The socket calls block (`accept`, `read`, `send`), so each runs on a dispatch queue of its own,
/// never on the Swift concurrency pool (see `BlockingExecutor`): the accepting loop, and per
/// connection a reader and a writer. A reader hands reports on in order, at most a few ahead of
/// the device, so a client that floods is slowed down, not buffered.
public struct CTAPHIDSocketServer: Sendable {
    /// The device behind the socket.
    public let device: CTAPHIDDevice
    /// The socket's path.
    public let path: String

    /// Creates a server; ``run(onStart:)`` listens.
    ///
    /// - Parameters:
    ///   - device: the device every connection talks to.
    ///   - path: where the socket goes; the file must not exist.
    public init(device: CTAPHIDDevice, path: String) {
        self.device = device
        self.path = path
    }

    /// Listens and serves until the task is cancelled, then closes every connection and removes
    /// the socket file.
    ///
    /// - Parameter onStart: called once the socket accepts connections.
    /// - Throws: ``CTAPHIDSocketError`` when the socket cannot be made (a path too long, a file
    ///   already there, a directory not writable).
    public func run(onStart: @Sendable () async -> Void = {}) async throws(CTAPHIDSocketError) {
        let listener = try listen()
        defer {
            close(listener)
            unlink(path)
        }
        await onStart()
        let open = OpenConnections()
        let (accepted, continuation) = AsyncStream.makeStream(of: Int32.self)
        DispatchQueue(label: "ctaphid-socket-accept").async {
            while true {
                let connection = accept(listener, nil, nil)
                if connection >= 0 {
                    continuation.yield(connection)
                } else if errno != EINTR && errno != ECONNABORTED {
                    break
                }
            }
            continuation.finish()
        }
        let device = device
        await withTaskCancellationHandler {
            await withDiscardingTaskGroup { group in
                for await descriptor in accepted {
                    guard open.insert(descriptor) else {
                        close(descriptor)
                        continue
                    }
                    group.addTask { await Connection(descriptor, open: open).serve(device) }
                }
            }
        } onCancel: {
            // Wakes the accepting loop and every reader; each closes its own descriptor.
            shutdown(listener, Int32(SHUT_RDWR))
            open.shutDownAll()
        }
    }

    /// `socket`, `bind` (mode 0600), `listen`.
    private func listen() throws(CTAPHIDSocketError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let name = Array(path.utf8)
        guard !name.isEmpty, name.count < capacity else {
            throw CTAPHIDSocketError("bind", path, reason: "a socket path has 1 to \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw CTAPHIDSocketError("socket", path) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let error = CTAPHIDSocketError("bind", path)
            close(listener)
            throw error
        }
        guard chmod(path, 0o600) == 0, Glibc.listen(listener, 16) == 0 else {
            let error = CTAPHIDSocketError("listen", path)
            close(listener)
            unlink(path)
            throw error
        }
        return listener
    }
}

/// A socket call that failed while ``CTAPHIDSocketServer`` was making its socket.
public struct CTAPHIDSocketError: Error, Sendable, CustomStringConvertible {
    /// The call: `socket`, `bind`, `listen`.
    public let operation: String
    /// The socket's path.
    public let path: String
    /// Why, in the system's words.
    public let reason: String

    /// Creates an error; without `reason`, the system's text for the current `errno`.
    init(_ operation: String, _ path: String, reason: String? = nil) {
        self.operation = operation
        self.path = path
        self.reason = reason ?? String(cString: strerror(errno))
    }

    /// `operation path: reason`, for the terminal.
    public var description: String { "\(operation) \(path): \(reason)" }
}

/// The descriptors of the open connections, so that stopping the server can shut them down.
private final class OpenConnections: Sendable {
    private let state = Mutex((descriptors: Set<Int32>(), stopped: false))

    /// Adds a connection; false once the server stopped.
    func insert(_ descriptor: Int32) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.descriptors.insert(descriptor)
            return true
        }
    }

    /// Closes a connection, unless stopping shuts it down at the same time.
    func close(_ descriptor: Int32) {
        state.withLock { state in
            state.descriptors.remove(descriptor)
            _ = Glibc.close(descriptor)
        }
    }

    /// Shuts every connection down: their readers see the end of the stream.
    func shutDownAll() {
        state.withLock { state in
            state.stopped = true
            for descriptor in state.descriptors { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }
}

/// One client's connection: a reader thread feeding the device in order, a writer queue sending
/// its answers.
private final class Connection: Sendable {
    /// How many reports a reader may read ahead of the device.
    private static let readAhead = 8

    private let descriptor: Int32
    private let open: OpenConnections
    private let writer = DispatchQueue(label: "ctaphid-socket-write")
    /// Set on the writer queue when it closes the descriptor, whose number may then be reused:
    /// answers still coming are dropped.
    private let closed = Mutex(false)

    init(_ descriptor: Int32, open: OpenConnections) {
        self.descriptor = descriptor
        self.open = open
    }

    func serve(_ device: CTAPHIDDevice) async {
        let (reports, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let taken = DispatchSemaphore(value: Self.readAhead)
        let descriptor = descriptor
        DispatchQueue(label: "ctaphid-socket-read").async {
            while let report = Self.readReport(descriptor) {
                taken.wait()
                continuation.yield(report)
            }
            continuation.finish()
        }
        let reply: CTAPHIDDevice.Reply = { report in
            self.writer.async {
                if !self.closed.withLock({ $0 }) { Self.send(report, to: descriptor) }
            }
        }
        for await report in reports {
            await device.receive(report, reply: reply)
            taken.signal()
        }
        // The reader is done with the descriptor; the writer closes it after what is queued.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            writer.async {
                self.closed.withLock { $0 = true }
                self.open.close(descriptor)
                done.resume()
            }
        }
    }

    /// Reads exactly 64 bytes; nil at the end of the stream, on an error, or on a partial report.
    private static func readReport(_ descriptor: Int32) -> [UInt8]? {
        var report = [UInt8](repeating: 0, count: CTAPHIDPacket.size)
        var filled = 0
        while filled < report.count {
            // 64 bytes: the buffer has a base address.
            let count = report.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count > 0 {
                filled += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return nil
            }
        }
        return report
    }

    /// Sends a whole report; a peer gone is not an error here (`MSG_NOSIGNAL`: no `SIGPIPE`), its
    /// reader sees the end.
    private static func send(_ report: [UInt8], to descriptor: Int32) {
        var sent = 0
        while sent < report.count {
            // A report is 64 bytes: the buffer has a base address.
            let count = report.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
