/// One event of Linux's UHID interface (`include/uapi/linux/uhid.h`): what a user-space HID device
/// writes to `/dev/uhid` and reads from it, one `struct uhid_event` per `write` and per `read`.
///
/// The struct is packed, 4380 bytes, its integers in the host's byte order: a `__u32 type`, then a
/// union whose member the type selects (offsets from the start of the event):
///
/// ```
/// UHID_DESTROY (1), UHID_STOP (3), UHID_OPEN (4), UHID_CLOSE (5): nothing
/// UHID_START (2):            dev_flags u64 @4
/// UHID_OUTPUT (6):           data[4096] @4 ‖ size u16 @4100 ‖ rtype u8 @4102
/// UHID_GET_REPORT (9):       id u32 @4 ‖ rnum u8 @8 ‖ rtype u8 @9
/// UHID_GET_REPORT_REPLY (10): id u32 @4 ‖ err u16 @8 ‖ size u16 @10 ‖ data[4096] @12
/// UHID_CREATE2 (11):         name[128] @4 ‖ phys[64] @132 ‖ uniq[64] @196 ‖ rd_size u16 @260 ‖
///                            bus u16 @262 ‖ vendor u32 @264 ‖ product u32 @268 ‖ version u32 @272 ‖
///                            country u32 @276 ‖ rd_data[4096] @280
/// UHID_INPUT2 (12):          size u16 @4 ‖ data[4096] @6
/// UHID_SET_REPORT (13):      id u32 @4 ‖ rnum u8 @8 ‖ rtype u8 @9 ‖ size u16 @10 ‖ data[4096] @12
/// UHID_SET_REPORT_REPLY (14): id u32 @4 ‖ err u16 @8
/// ```
///
/// The kernel zero-fills what a write leaves out and copies at most the struct on a read; this type
/// always encodes the whole struct and decodes one only as far as its type's fields reach.
package enum UHIDEvent: Sendable, Hashable {
    /// `UHID_CREATE2`: makes the HID device.
    case create2(UHIDDeviceDescription)
    /// `UHID_DESTROY`: removes it.
    case destroy
    /// `UHID_START`: the HID layer took the device; `flags` say which reports carry numbers.
    case start(flags: UInt64)
    /// `UHID_STOP`: the HID layer let the device go.
    case stop
    /// `UHID_OPEN`: a process opened the device (its hidraw node).
    case open
    /// `UHID_CLOSE`: the last such process closed it.
    case close
    /// `UHID_OUTPUT`: a host wrote a report, its report number first.
    case output(data: [UInt8], reportType: UInt8)
    /// `UHID_GET_REPORT`: a host asks for a report; answered by `getReportReply` with the same `id`.
    case getReport(id: UInt32, reportNumber: UInt8, reportType: UInt8)
    /// `UHID_GET_REPORT_REPLY`: the answer, an `errno` value or 0 with the report.
    case getReportReply(id: UInt32, error: UInt16, data: [UInt8])
    /// `UHID_INPUT2`: a report from the device to the hosts.
    case input2(data: [UInt8])
    /// `UHID_SET_REPORT`: a host sets a report; answered by `setReportReply` with the same `id`.
    case setReport(id: UInt32, reportNumber: UInt8, reportType: UInt8, data: [UInt8])
    /// `UHID_SET_REPORT_REPLY`: the answer, an `errno` value or 0.
    case setReportReply(id: UInt32, error: UInt16)
    /// A type this device has no use for (the legacy events, newer ones).
    case other(type: UInt32)

    /// `sizeof(struct uhid_event)`.
    package static let size = 4380
    /// `UHID_DATA_MAX` and `HID_MAX_DESCRIPTOR_SIZE`: the room for a report or a report descriptor.
    package static let dataMax = 4096
    /// `UHID_OUTPUT_REPORT`, the `rtype` of a report written to the device.
    package static let outputReport: UInt8 = 1

    /// The event's `type`.
    package var type: UInt32 {
        switch self {
        case .destroy: 1
        case .start: 2
        case .stop: 3
        case .open: 4
        case .close: 5
        case .output: 6
        case .getReport: 9
        case .getReportReply: 10
        case .create2: 11
        case .input2: 12
        case .setReport: 13
        case .setReportReply: 14
        case .other(let type): type
        }
    }

    /// The whole struct, `size` bytes; data longer than its field is cut to `dataMax` bytes.
    package var bytes: [UInt8] {
        var writer = NativeWriter()
        writer.integer(type)
        switch self {
        case .destroy, .stop, .open, .close, .other:
            break
        case .start(let flags):
            writer.integer(flags)
        case .output(let data, let reportType):
            writer.field(data, Self.dataMax)
            writer.integer(UInt16(min(data.count, Self.dataMax)))
            writer.integer(reportType)
        case .getReport(let id, let reportNumber, let reportType):
            writer.integer(id)
            writer.integer(reportNumber)
            writer.integer(reportType)
        case .getReportReply(let id, let error, let data):
            writer.integer(id)
            writer.integer(error)
            writer.sized(data)
        case .create2(let description):
            writer.field(Array(description.name.utf8.prefix(127)), 128)
            writer.field(Array(description.physicalLocation.utf8.prefix(63)), 64)
            writer.field(Array(description.uniqueID.utf8.prefix(63)), 64)
            writer.integer(UInt16(min(description.reportDescriptor.count, Self.dataMax)))
            writer.integer(description.bus)
            writer.integer(description.vendor)
            writer.integer(description.product)
            writer.integer(description.version)
            writer.integer(description.country)
            writer.field(description.reportDescriptor, Self.dataMax)
        case .input2(let data):
            writer.sized(data)
        case .setReport(let id, let reportNumber, let reportType, let data):
            writer.integer(id)
            writer.integer(reportNumber)
            writer.integer(reportType)
            writer.sized(data)
        case .setReportReply(let id, let error):
            writer.integer(id)
            writer.integer(error)
        }
        return writer.bytes + [UInt8](repeating: 0, count: max(0, Self.size - writer.bytes.count))
    }

    /// Reads an event as far as its type's fields reach.
    ///
    /// - Parameter bytes: what one `read` of `/dev/uhid` returned.
    /// - Throws: ``CTAPHIDTransportError`` when the bytes end before the type's fields do, or a size
    ///   field exceeds its data field.
    package init(bytes: [UInt8]) throws(CTAPHIDTransportError) {
        var reader = NativeReader(bytes[...])
        let type: UInt32 = try reader.integer("type")
        switch type {
        case 1: self = .destroy
        case 2: self = .start(flags: try reader.integer("dev_flags"))
        case 3: self = .stop
        case 4: self = .open
        case 5: self = .close
        case 6:
            let data = try reader.read(Self.dataMax, "data")
            let size: UInt16 = try reader.integer("size")
            let reportType: UInt8 = try reader.integer("rtype")
            guard Int(size) <= Self.dataMax else { throw reader.oversized("UHID_OUTPUT") }
            self = .output(data: Array(data.prefix(Int(size))), reportType: reportType)
        case 9:
            self = .getReport(
                id: try reader.integer("id"), reportNumber: try reader.integer("rnum"),
                reportType: try reader.integer("rtype"))
        case 10:
            self = .getReportReply(
                id: try reader.integer("id"), error: try reader.integer("err"), data: try reader.sized())
        case 11:
            let name = try reader.string(128, "name")
            let physicalLocation = try reader.string(64, "phys")
            let uniqueID = try reader.string(64, "uniq")
            let descriptorSize: UInt16 = try reader.integer("rd_size")
            let bus: UInt16 = try reader.integer("bus")
            let vendor: UInt32 = try reader.integer("vendor")
            let product: UInt32 = try reader.integer("product")
            let version: UInt32 = try reader.integer("version")
            let country: UInt32 = try reader.integer("country")
            let descriptor = try reader.read(Self.dataMax, "rd_data")
            guard Int(descriptorSize) <= Self.dataMax else { throw reader.oversized("UHID_CREATE2") }
            self = .create2(
                UHIDDeviceDescription(
                    name: name, physicalLocation: physicalLocation, uniqueID: uniqueID,
                    reportDescriptor: Array(descriptor.prefix(Int(descriptorSize))), bus: bus, vendor: vendor,
                    product: product, version: version, country: country))
        case 12:
            self = .input2(data: try reader.sized())
        case 13:
            self = .setReport(
                id: try reader.integer("id"), reportNumber: try reader.integer("rnum"),
                reportType: try reader.integer("rtype"), data: try reader.sized())
        case 14:
            self = .setReportReply(id: try reader.integer("id"), error: try reader.integer("err"))
        default:
            self = .other(type: type)
        }
    }
}

/// What `UHID_CREATE2` says about the device it makes.
package struct UHIDDeviceDescription: Sendable, Hashable {
    /// `name`: the product name hosts show (at most 127 bytes of UTF-8 are kept).
    package var name: String
    /// `phys`: where the device is, free text.
    package var physicalLocation: String
    /// `uniq`: a serial number, free text.
    package var uniqueID: String
    /// `rd_data`: the HID report descriptor.
    package var reportDescriptor: [UInt8]
    /// `bus`: `BUS_USB` (3) for a device hosts treat as a USB one.
    package var bus: UInt16
    /// `vendor`: the USB vendor ID.
    package var vendor: UInt32
    /// `product`: the USB product ID.
    package var product: UInt32
    /// `version`: the device's release number.
    package var version: UInt32
    /// `country`: the HID country code, 0 for none.
    package var country: UInt32
}

/// Writes integers in the host's byte order and fixed-size fields, as `struct uhid_event` has them.
private struct NativeWriter {
    var bytes: [UInt8] = []

    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value) { bytes += $0 }
    }

    /// `data` in a field of `count` bytes, cut or zero-padded.
    mutating func field(_ data: [UInt8], _ count: Int) {
        bytes += data.prefix(count) + [UInt8](repeating: 0, count: max(0, count - data.count))
    }

    /// `size u16 ‖ data[4096]`.
    mutating func sized(_ data: [UInt8]) {
        integer(UInt16(min(data.count, UHIDEvent.dataMax)))
        field(data, UHIDEvent.dataMax)
    }
}

/// Reads what ``NativeWriter`` writes, throwing on truncation with the field's name.
private struct NativeReader {
    private var remaining: ArraySlice<UInt8>
    private let total: Int

    init(_ bytes: ArraySlice<UInt8>) {
        remaining = bytes
        total = bytes.count
    }

    mutating func read(_ count: Int, _ what: String) throws(CTAPHIDTransportError) -> ArraySlice<UInt8> {
        guard remaining.count >= count else {
            throw CTAPHIDTransportError(
                "read", reason: "a UHID event of \(total) bytes ends before its \(what) (\(count) bytes)")
        }
        defer { remaining = remaining.dropFirst(count) }
        return remaining.prefix(count)
    }

    mutating func integer<T: FixedWidthInteger>(_ what: String) throws(CTAPHIDTransportError) -> T {
        let field = try read(MemoryLayout<T>.size, what)
        var value = T.zero
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: field) }
        return value
    }

    /// A NUL-terminated string in a field of `count` bytes.
    mutating func string(_ count: Int, _ what: String) throws(CTAPHIDTransportError) -> String {
        String(decoding: try read(count, what).prefix { $0 != 0 }, as: UTF8.self)
    }

    /// `size u16 ‖ data[4096]`.
    mutating func sized() throws(CTAPHIDTransportError) -> [UInt8] {
        let size: UInt16 = try integer("size")
        let data = try read(UHIDEvent.dataMax, "data")
        guard Int(size) <= UHIDEvent.dataMax else { throw oversized("the event") }
        return Array(data.prefix(Int(size)))
    }

    func oversized(_ what: String) -> CTAPHIDTransportError {
        CTAPHIDTransportError("read", reason: "\(what) gives a size above \(UHIDEvent.dataMax) bytes")
    }
}
