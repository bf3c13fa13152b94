import Dispatch
import Glibc
import Synchronization

/// Makes a ``CTAPHIDDevice`` a USB HID security key through Linux's `/dev/uhid` (issue 29's
/// `passkey device --uhid`): browsers, libfido2 (and through it OpenSSH's `-sk` keys, pam-u2f,
/// `systemd-cryptenroll`) and python-fido2 find it as they find a key plugged in.
///
/// It writes `UHID_CREATE2` with the FIDO usage page's report descriptor (CTAP 2.1 §11.2.8.1:
/// usage page 0xF1D0, usage 0x01, 64-byte input and output reports, no report IDs), then serves
/// the kernel's events: each `UHID_OUTPUT` (a host's 64-byte report after its report number 0)
/// goes to the device, each answer goes back as `UHID_INPUT2`; `UHID_GET_REPORT` and
/// `UHID_SET_REPORT` (feature reports, which a FIDO key has none of) answer `EIO` at once, so no
/// host waits for the kernel's timeout. Stopping writes `UHID_DESTROY`: the key is unplugged.
///
/// Reading `/dev/uhid` blocks, so the reader runs on a dispatch queue of its own (beside a wake-up
/// pipe it polls, which is how stopping interrupts it), and so do the writes, never on the Swift
/// concurrency pool (see `BlockingExecutor`).
///
/// The device node is usually root's: see the DocC article "Running a FIDO device" for the udev
/// rule that gives a group `/dev/uhid`.
public struct CTAPHIDUHIDDevice: Sendable {
    /// The FIDO usage page's HID report descriptor (CTAP 2.1 §11.2.8.1), what makes hosts treat the
    /// device as a FIDO authenticator: 64 bytes in, 64 bytes out.
    public static let reportDescriptor: [UInt8] =
        [
            0x06, 0xD0, 0xF1,  // Usage Page (FIDO Alliance, 0xF1D0)
            0x09, 0x01,  // Usage (CTAPHID)
            0xA1, 0x01,  // Collection (Application)
        ] + report(usage: 0x20, item: 0x81) + report(usage: 0x21, item: 0x91) + [0xC0]  // End Collection

    /// One direction's 64-byte report: usage 0x20 and an Input item (0x81), or usage 0x21 and an
    /// Output item (0x91).
    private static func report(usage: UInt8, item: UInt8) -> [UInt8] {
        [
            0x09, usage,  // Usage (Input Report Data, Output Report Data)
            0x15, 0x00,  // Logical Minimum (0)
            0x26, 0xFF, 0x00,  // Logical Maximum (255)
            0x75, 0x08,  // Report Size (8)
            0x95, 0x40,  // Report Count (64)
            item, 0x02,  // Input or Output (Data, Variable, Absolute)
        ]
    }

    /// The USB vendor ID it shows: 0x1209, pid.codes' ID for open-source devices.
    public static let vendorID: UInt16 = 0x1209
    /// The USB product ID it shows: 0x0001, pid.codes' test product ID (not a registered product).
    public static let productID: UInt16 = 0x0001

    /// The device behind the HID node.
    public let device: CTAPHIDDevice
    /// The product name hosts show (`fido2-token -L`, a browser's prompt).
    public let name: String
    /// The UHID node, `/dev/uhid`.
    public let path: String

    /// Creates a UHID device; ``run(onStart:)`` plugs it in.
    ///
    /// - Parameters:
    ///   - device: what answers the hosts' reports.
    ///   - name: the product name hosts show (at most 127 bytes of UTF-8 are kept).
    ///   - path: the UHID node; `/dev/uhid` unless a test or a container puts it elsewhere.
    public init(device: CTAPHIDDevice, name: String = "SoftPasskey", path: String = "/dev/uhid") {
        self.device = device
        self.name = name
        self.path = path
    }

    /// What `UHID_CREATE2` says: USB, pid.codes' vendor and test product, the FIDO descriptor.
    var description: UHIDDeviceDescription {
        UHIDDeviceDescription(
            name: name, physicalLocation: "softpasskey", uniqueID: "", reportDescriptor: Self.reportDescriptor,
            bus: 3, vendor: UInt32(Self.vendorID), product: UInt32(Self.productID), version: 0x0100, country: 0)
    }

    /// Opens the UHID node, creates the HID device and serves it until the task is cancelled, then
    /// destroys it.
    ///
    /// - Parameter onStart: called once the device exists (hosts may not have bound it yet).
    /// - Throws: ``CTAPHIDUHIDError`` when the node is missing or not writable, or a read or write
    ///   on it fails.
    public func run(onStart: @Sendable () async -> Void = {}) async throws(CTAPHIDUHIDError) {
        let descriptor = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw CTAPHIDUHIDError.opening(path) }
        defer { close(descriptor) }
        try await serve(descriptor, onStart: onStart)
    }

    /// Serves on an open UHID descriptor (a test gives one end of a `SOCK_SEQPACKET` pair and plays
    /// the kernel on the other).
    package func serve(_ descriptor: Int32, onStart: @Sendable () async -> Void = {}) async throws(CTAPHIDUHIDError) {
        let events = try UHIDEventChannel(descriptor, path: path)
        try await events.create(description)
        await onStart()
        let incoming = events.incoming()
        let device = device
        let reply: CTAPHIDDevice.Reply = { report in events.send(.input2(data: report)) }
        await withTaskCancellationHandler {
            for await event in incoming {
                switch event {
                case .output(let data, let reportType):
                    // Hosts write the report number (0: the descriptor has no report IDs), then the report.
                    if reportType == UHIDEvent.outputReport, data.count == CTAPHIDPacket.size + 1, data[0] == 0 {
                        await device.receive(Array(data.dropFirst()), reply: reply)
                    }
                case .getReport(let id, _, _):
                    events.send(.getReportReply(id: id, error: UInt16(EIO), data: []))
                case .setReport(let id, _, _, _):
                    events.send(.setReportReply(id: id, error: UInt16(EIO)))
                default:
                    break
                }
                events.taken()
            }
        } onCancel: {
            events.stop()
        }
        if let failure = await events.finish() { throw failure }
    }
}

/// Why ``CTAPHIDUHIDDevice`` cannot be, or stopped being, a HID device.
public struct CTAPHIDUHIDError: Error, Sendable, CustomStringConvertible {
    /// The call: `open`, `read`, `write`.
    public let operation: String
    /// Why, in the system's words, with what to do where that is known.
    public let reason: String

    /// Creates an error; without `reason`, the system's text for the current `errno`.
    init(_ operation: String, reason: String? = nil) {
        self.operation = operation
        self.reason = reason ?? String(cString: strerror(errno))
    }

    /// Opening the node failed: the two usual causes get their remedy.
    static func opening(_ path: String) -> CTAPHIDUHIDError {
        let system = String(cString: strerror(errno))
        switch errno {
        case ENOENT, ENODEV, ENXIO:
            return CTAPHIDUHIDError(
                "open", reason: "\(path): \(system) (this system has no UHID: load the module with `modprobe uhid`)")
        case EACCES, EPERM:
            return CTAPHIDUHIDError(
                "open",
                reason: "\(path): \(system) (give your group read and write access to it with a udev rule: "
                    + "KERNEL==\"uhid\", GROUP=\"uhid\", MODE=\"0660\")")
        default:
            return CTAPHIDUHIDError("open", reason: "\(path): \(system)")
        }
    }

    /// `operation: reason`, for the terminal.
    public var description: String { "\(operation): \(reason)" }
}

/// The UHID descriptor's two directions: a reader queue yielding events (a few ahead of the device
/// at most, as the socket server's readers do) and a serial writer queue.
private final class UHIDEventChannel: Sendable {
    /// How many events the reader may read ahead of the device.
    private static let readAhead = 8

    private let descriptor: Int32
    private let path: String
    private let writer = DispatchQueue(label: "ctaphid-uhid-write")
    private let room = DispatchSemaphore(value: readAhead)
    /// The wake-up pipe the reader polls beside the node: a byte in it stops the reader.
    private let wake: (read: Int32, write: Int32)
    /// The first read or write that failed.
    private let failure = Mutex<CTAPHIDUHIDError?>(nil)

    init(_ descriptor: Int32, path: String) throws(CTAPHIDUHIDError) {
        self.descriptor = descriptor
        self.path = path
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw CTAPHIDUHIDError("pipe") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wake = (ends[0], ends[1])
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    /// Writes `UHID_CREATE2` on the writer queue and waits for it.
    func create(_ description: UHIDDeviceDescription) async throws(CTAPHIDUHIDError) {
        let failure = await onWriter { () -> CTAPHIDUHIDError? in
            do throws(CTAPHIDUHIDError) {
                try self.write(.create2(description))
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Writes one event now, from the caller's thread.
    private func write(_ event: UHIDEvent) throws(CTAPHIDUHIDError) {
        let bytes = event.bytes
        while true {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count == bytes.count { return }
            if count < 0 && errno == EINTR { continue }
            throw count < 0
                ? CTAPHIDUHIDError("write")
                : CTAPHIDUHIDError("write", reason: "\(path) took \(count) of \(bytes.count) bytes")
        }
    }

    /// Writes one event on the writer queue, after those sent before it; a failure is kept for
    /// ``finish()`` and stops the reader.
    func send(_ event: UHIDEvent) {
        writer.async {
            do throws(CTAPHIDUHIDError) {
                try self.write(event)
            } catch {
                self.fail(error)
            }
        }
    }

    /// The events the node gives, until ``stop()``, the end of the node or an error.
    func incoming() -> AsyncStream<UHIDEvent> {
        let (events, continuation) = AsyncStream.makeStream(of: UHIDEvent.self)
        DispatchQueue(label: "ctaphid-uhid-read").async {
            while let event = self.readEvent() {
                self.room.wait()
                continuation.yield(event)
            }
            continuation.finish()
        }
        return events
    }

    /// The device is done with one event: the reader may read another.
    func taken() {
        room.signal()
    }

    /// Wakes the reader, which then ends the stream.
    func stop() {
        var byte: UInt8 = 1
        _ = Glibc.write(wake.write, &byte, 1)
        room.signal()
    }

    /// Writes `UHID_DESTROY` after every answer queued, and gives the first failure, if any.
    func finish() async -> CTAPHIDUHIDError? {
        await onWriter {
            do throws(CTAPHIDUHIDError) {
                try self.write(.destroy)
            } catch {
                self.fail(error)
            }
            return self.failure.withLock { $0 }
        }
    }

    /// Runs `body` on the writer queue, after what is queued, and waits for it.
    private func onWriter<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { done in writer.async { done.resume(returning: body()) } }
    }

    private func fail(_ error: CTAPHIDUHIDError) {
        failure.withLock { $0 = $0 ?? error }
        stop()
    }

    /// Waits for the node or the wake-up pipe; reads one event from the node.
    private func readEvent() -> UHIDEvent? {
        var buffer = [UInt8](repeating: 0, count: UHIDEvent.size)
        while true {
            var polled = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&polled, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0, polled[1].revents == 0 else {
                if ready < 0 { fail(CTAPHIDUHIDError("poll")) }
                return nil
            }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else {
                fail(count < 0 ? CTAPHIDUHIDError("read") : CTAPHIDUHIDError("read", reason: "\(path) closed"))
                return nil
            }
            do throws(CTAPHIDUHIDError) {
                return try UHIDEvent(bytes: Array(buffer.prefix(count)))
            } catch {
                fail(error)
                return nil
            }
        }
    }
}
