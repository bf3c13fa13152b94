import BlockingIO
import Glibc

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
/// The node goes through the package's one I/O layer (BlockingIO's `OpenFile` and
/// `DescriptorChannel`, as ``CTAPHIDSocketServer``'s connections do): reading and writing it
/// block, so they run on dispatch queues of their own, never on the Swift concurrency pool, and
/// the reader stays a few events ahead of the device at most.
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
    /// - Throws: ``CTAPHIDTransportError`` when the node is missing or not writable, or a read or write
    ///   on it fails.
    public func run(onStart: @Sendable () async -> Void = {}) async throws(CTAPHIDTransportError) {
        let node: OpenFile<SystemCallError>
        do throws(SystemCallError) {
            node = try OpenFile(opening: path, .readWrite)
        } catch {
            throw CTAPHIDTransportError.opening(error)
        }
        // The node stays open while it is served, and closes when serving ends.
        defer { withExtendedLifetime(node) {} }
        try await serve(node.rawDescriptor, onStart: onStart)
    }

    /// Serves on an open UHID descriptor, which stays open (a test gives one end of a
    /// `SOCK_SEQPACKET` pair and plays the kernel on the other).
    package func serve(_ descriptor: Int32, onStart: @Sendable () async -> Void = {})
        async throws(CTAPHIDTransportError)
    {
        let events: DescriptorChannel
        do throws(SystemCallError) {
            events = try DescriptorChannel(
                descriptor, path: path, framing: .packets(maximum: UHIDEvent.size), closing: false)
            try await events.write(UHIDEvent.create2(description).bytes)
        } catch {
            throw .serving(error)
        }
        await onStart()
        let device = device
        let reply: CTAPHIDDevice.Reply = { reports in
            for report in reports { events.send(UHIDEvent.input2(data: report).bytes) }
        }
        // An event that does not parse stops serving, as a failed read does.
        let malformed = await withTaskCancellationHandler { () async -> CTAPHIDTransportError? in
            for await bytes in events.messages() {
                let event: UHIDEvent
                do throws(CTAPHIDTransportError) {
                    event = try UHIDEvent(bytes: bytes)
                } catch {
                    events.stop()
                    return error
                }
                switch event {
                case .output(let data, let reportType):
                    // Hosts write the report number (0: the descriptor has no report IDs), then the report.
                    if reportType == UHIDEvent.outputReport, data.count == CTAPHIDPacket.size + 1, data[0] == 0 {
                        await device.receive(Array(data.dropFirst()), reply: reply)
                    }
                case .getReport(let id, _, _):
                    events.send(UHIDEvent.getReportReply(id: id, error: UInt16(EIO), data: []).bytes)
                case .setReport(let id, _, _, _):
                    events.send(UHIDEvent.setReportReply(id: id, error: UInt16(EIO)).bytes)
                default:
                    break
                }
                events.taken()
            }
            return nil
        } onCancel: {
            events.stop()
        }
        // UHID_DESTROY after every answer queued: the key is unplugged.
        let ended = await events.finish(writing: UHIDEvent.destroy.bytes)
        if let failure = malformed ?? ended.map(CTAPHIDTransportError.serving) { throw failure }
    }
}
