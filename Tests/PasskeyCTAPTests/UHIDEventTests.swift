import Testing

@testable import PasskeyCTAP

/// `struct uhid_event` as ``UHIDEvent`` writes and reads it. The offsets are those `offsetof` gives
/// for `include/uapi/linux/uhid.h` (x86-64 and arm64 Linux: packed, little-endian); they are
/// written out here, not computed from the code under test.
@Suite struct UHIDEventTests {
    /// A little-endian integer of `count` bytes at `offset`.
    private func integer(_ bytes: [UInt8], at offset: Int, _ count: Int) -> UInt64 {
        bytes[offset..<offset + count].reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    private func event(type: UInt32, _ fields: [(offset: Int, bytes: [UInt8])]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 4380)
        bytes.replaceSubrange(0..<4, with: [UInt8(type), 0, 0, 0])
        for field in fields {
            bytes.replaceSubrange(field.offset..<field.offset + field.bytes.count, with: field.bytes)
        }
        return bytes
    }

    private static let report = (0..<64).map { UInt8($0 * 3 & 0xFF) }

    #if _endian(little)
        @Test func create2PutsEachFieldWhereTheKernelReadsIt() {
            let device = CTAPHIDUHIDDevice(device: CTAPHIDDevice(handler: EchoHandler()), name: "SoftPasskey test")
            let bytes = UHIDEvent.create2(device.description).bytes
            #expect(bytes.count == 4380)
            #expect(integer(bytes, at: 0, 4) == 11, "UHID_CREATE2")
            #expect(Array(bytes[4..<20]) == Array("SoftPasskey test".utf8) && bytes[20] == 0, "name @4, NUL-terminated")
            #expect(Array(bytes[132..<143]) == Array("softpasskey".utf8), "phys @132")
            #expect(integer(bytes, at: 260, 2) == 34, "rd_size @260")
            #expect(integer(bytes, at: 262, 2) == 3, "bus @262: BUS_USB")
            #expect(integer(bytes, at: 264, 4) == 0x1209, "vendor @264")
            #expect(integer(bytes, at: 268, 4) == 0x0001, "product @268")
            #expect(integer(bytes, at: 272, 4) == 0x0100, "version @272")
            #expect(Array(bytes[280..<314]) == CTAPHIDUHIDDevice.reportDescriptor, "rd_data @280")
            #expect(bytes[314...].allSatisfy { $0 == 0 })
        }

        @Test func input2CarriesTheSizeThenTheReport() {
            let bytes = UHIDEvent.input2(data: Self.report).bytes
            #expect(bytes.count == 4380)
            #expect(integer(bytes, at: 0, 4) == 12, "UHID_INPUT2")
            #expect(integer(bytes, at: 4, 2) == 64, "size @4")
            #expect(Array(bytes[6..<70]) == Self.report, "data @6")
        }

        @Test func outputIsReadFromItsDataSizeAndType() throws {
            let written = [0] + Self.report
            let bytes = event(type: 6, [(4, written), (4100, [65, 0]), (4102, [1])])
            #expect(try UHIDEvent(bytes: bytes) == .output(data: written, reportType: UHIDEvent.outputReport))
        }

        @Test func getReportIsAnsweredWithItsID() throws {
            let bytes = event(type: 9, [(4, [0x78, 0x56, 0x34, 0x12]), (8, [2]), (9, [0])])
            #expect(try UHIDEvent(bytes: bytes) == .getReport(id: 0x1234_5678, reportNumber: 2, reportType: 0))
            let reply = UHIDEvent.getReportReply(id: 0x1234_5678, error: 5, data: []).bytes
            #expect(integer(reply, at: 0, 4) == 10 && integer(reply, at: 4, 4) == 0x1234_5678)
            #expect(integer(reply, at: 8, 2) == 5 && integer(reply, at: 10, 2) == 0, "err @8, size @10")
            let setReply = UHIDEvent.setReportReply(id: 9, error: 5).bytes
            #expect(
                integer(setReply, at: 0, 4) == 14 && integer(setReply, at: 4, 4) == 9
                    && integer(setReply, at: 8, 2) == 5)
        }

        @Test func startCarriesItsFlags() throws {
            #expect(try UHIDEvent(bytes: event(type: 2, [(4, [4, 0, 0, 0, 0, 0, 0, 0])])) == .start(flags: 4))
            #expect(try UHIDEvent(bytes: event(type: 4, [])) == .open)
            #expect(
                try UHIDEvent(bytes: event(type: 1, [])).bytes == event(type: 1, []), "UHID_DESTROY: the type alone")
        }
    #endif

    static let everyKind: [UHIDEvent] = [
        .create2(CTAPHIDUHIDDevice(device: CTAPHIDDevice(handler: EchoHandler())).description), .destroy,
        .start(flags: 7), .stop, .open, .close, .output(data: [0] + report, reportType: 1),
        .getReport(id: 3, reportNumber: 0, reportType: 0), .getReportReply(id: 3, error: 0, data: [1, 2]),
        .input2(data: report), .setReport(id: 4, reportNumber: 1, reportType: 2, data: [9]),
        .setReportReply(id: 4, error: 5), .other(type: 7),
    ]

    @Test(arguments: everyKind)
    func roundTrips(event: UHIDEvent) throws {
        #expect(event.bytes.count == UHIDEvent.size)
        #expect(try UHIDEvent(bytes: event.bytes) == event)
    }

    @Test func aTruncatedEventThrows() {
        for length in [0, 3] {
            #expect(throws: CTAPHIDTransportError.self) {
                try UHIDEvent(bytes: Array(UHIDEvent.open.bytes.prefix(length)))
            }
        }
        let output = UHIDEvent.output(data: [0] + Self.report, reportType: 1).bytes
        #expect(throws: CTAPHIDTransportError.self) { try UHIDEvent(bytes: Array(output.prefix(4102))) }
        #expect(throws: Never.self) { try UHIDEvent(bytes: Array(output.prefix(4103))) }
        var oversized = UHIDEvent.input2(data: Self.report).bytes
        oversized.replaceSubrange(4..<6, with: [0x01, 0x10])  // 4097
        #expect(throws: CTAPHIDTransportError.self) { try UHIDEvent(bytes: oversized) }
    }

    /// Reads the descriptor's short items as a host's HID parser does (libfido2's `is_fido`, the
    /// kernel's hid-core): the FIDO usage page and usage, 64 bytes of 8 bits each way.
    @Test func theReportDescriptorIsTheFIDOOne() throws {
        var items: [(tag: UInt8, value: UInt32)] = []
        var rest = CTAPHIDUHIDDevice.reportDescriptor[...]
        while let prefix = rest.popFirst() {
            let size = [0, 1, 2, 4][Int(prefix & 0x03)]
            try #require(rest.count >= size, "an item runs past the end")
            let value = rest.prefix(size).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            rest = rest.dropFirst(size)
            items.append((prefix & 0xFC, value))
        }
        #expect(items.first?.tag == 0x04 && items.first?.value == 0xF1D0, "Usage Page (FIDO Alliance)")
        #expect(items[1].tag == 0x08 && items[1].value == 0x01, "Usage (CTAPHID)")
        #expect(items[2].tag == 0xA0 && items[2].value == 0x01, "Collection (Application)")
        let main = items.enumerated().filter { [0x80, 0x90].contains($0.element.tag) }
        #expect(main.map(\.element.tag) == [0x80, 0x90], "one Input, then one Output")
        for (index, _) in main {
            let before = items[..<index]
            #expect(before.last { $0.tag == 0x74 }?.value == 8, "Report Size 8")
            #expect(before.last { $0.tag == 0x94 }?.value == 64, "Report Count 64")
            #expect(!before.contains { $0.tag == 0x84 }, "no Report ID")
        }
        #expect(items.last?.tag == 0xC0, "End Collection")
    }
}

/// A command handler that answers each CBOR message with itself, for tests of the transports alone.
struct EchoHandler: CTAPCommandHandler {
    func handle(_ message: [UInt8], context: CTAPTransaction) async -> [UInt8] { [0x00] + message }
}
