import PasskeyAuthenticator
import Testing

@testable import PasskeyCTAP

/// Command APDUs as U2F carries them (FIDO U2F Raw Message Formats v1.2 §3.1, ISO/IEC 7816-4
/// §5.1): every short and extended shape, and every malformed one answered with its status word.
@Suite struct U2FAPDUTests {
    struct Shape: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let data: [UInt8]
        let expectedLength: Int?
        var testDescription: String { name }
    }

    static let header: [UInt8] = [0x00, 0x02, 0x03, 0x04]
    static let payload: [UInt8] = [0xAA, 0xBB, 0xCC]

    static let wellFormed: [Shape] = [
        Shape(name: "case 1", bytes: header, data: [], expectedLength: nil),
        Shape(name: "case 2S", bytes: header + [0x10], data: [], expectedLength: 16),
        Shape(name: "case 2S, Le 0", bytes: header + [0x00], data: [], expectedLength: 256),
        Shape(name: "case 3S", bytes: header + [3] + payload, data: payload, expectedLength: nil),
        Shape(name: "case 4S", bytes: header + [3] + payload + [0], data: payload, expectedLength: 256),
        Shape(name: "case 2E", bytes: header + [0, 0x01, 0x00], data: [], expectedLength: 256),
        Shape(name: "case 2E, Le 0", bytes: header + [0, 0, 0], data: [], expectedLength: 65536),
        Shape(name: "case 3E", bytes: header + [0, 0, 3] + payload, data: payload, expectedLength: nil),
        Shape(name: "case 4E", bytes: header + [0, 0, 3] + payload + [0, 0], data: payload, expectedLength: 65536),
        Shape(name: "Lc 0000 and Le (python-fido2)", bytes: header + [0, 0, 0, 0, 0], data: [], expectedLength: 65536),
        Shape(
            name: "case 4E, 300 bytes", bytes: header + [0, 0x01, 0x2C] + [UInt8](repeating: 7, count: 300) + [0, 0],
            data: [UInt8](repeating: 7, count: 300), expectedLength: 65536),
    ]

    @Test(arguments: wellFormed)
    func wellFormedShapesParse(shape: Shape) throws {
        let apdu = try U2FCommandAPDU(bytes: shape.bytes)
        #expect([apdu.cla, apdu.ins, apdu.p1, apdu.p2] == Self.header)
        #expect(apdu.data == shape.data && apdu.expectedLength == shape.expectedLength)
    }

    static let malformed: [Shape] = [
        Shape(name: "empty", bytes: [], data: [], expectedLength: nil),
        Shape(name: "1 byte", bytes: [0], data: [], expectedLength: nil),
        Shape(name: "3 bytes", bytes: [0, 2, 3], data: [], expectedLength: nil),
        Shape(name: "short Lc beyond the data", bytes: header + [4] + payload, data: [], expectedLength: nil),
        Shape(
            name: "short, two bytes after the data", bytes: header + [3] + payload + [0, 0], data: [],
            expectedLength: nil),
        Shape(name: "extended, one byte of Lc", bytes: header + [0, 1], data: [], expectedLength: nil),
        Shape(name: "extended Lc beyond the data", bytes: header + [0, 0, 4] + payload, data: [], expectedLength: nil),
        Shape(
            name: "extended, one byte of Le", bytes: header + [0, 0, 3] + payload + [0], data: [], expectedLength: nil),
        Shape(
            name: "extended, three bytes of Le", bytes: header + [0, 0, 3] + payload + [0, 0, 0], data: [],
            expectedLength: nil),
        Shape(name: "Lc 0000 and one byte", bytes: header + [0, 0, 0, 0], data: [], expectedLength: nil),
    ]

    @Test(arguments: malformed)
    func malformedShapesAreWrongLength(shape: Shape) async throws {
        #expect(throws: U2FStatusWord.wrongLength) { try U2FCommandAPDU(bytes: shape.bytes) }
        // And the device answers the status word alone, whatever the instruction.
        let device = CommandsFixture().device
        #expect(await device.handleU2F(shape.bytes, context: CTAPTransaction(channel: 1)) == [0x67, 0x00])
    }

    @Test func everyStrictPrefixOfARegisterAPDUParsesOrIsWrongLength() throws {
        let apdu = U2FClient.apdu(ins: 0x01, data: [UInt8](repeating: 1, count: 64))
        for count in 0..<apdu.count {
            do {
                _ = try U2FCommandAPDU(bytes: Array(apdu.prefix(count)))
            } catch {
                #expect(error == .wrongLength)
            }
        }
    }

    /// One malformed request of a well-formed APDU, and the status word it gets.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let apdu: [UInt8]
        let status: [UInt8]
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "CLA 0x80", apdu: U2FClient.apdu(cla: 0x80, ins: 0x03), status: [0x6E, 0x00]),
        Refusal(name: "INS 0x04", apdu: U2FClient.apdu(ins: 0x04), status: [0x6D, 0x00]),
        Refusal(name: "INS 0xC0", apdu: U2FClient.apdu(ins: 0xC0, data: [1]), status: [0x6D, 0x00]),
        Refusal(
            name: "register, 63 bytes", apdu: U2FClient.apdu(ins: 0x01, data: [UInt8](repeating: 1, count: 63)),
            status: [0x67, 0x00]),
        Refusal(
            name: "register, 65 bytes", apdu: U2FClient.apdu(ins: 0x01, data: [UInt8](repeating: 1, count: 65)),
            status: [0x67, 0x00]),
        Refusal(
            name: "authenticate, no key handle length",
            apdu: U2FClient.apdu(ins: 0x02, p1: 0x03, data: [UInt8](repeating: 1, count: 64)), status: [0x67, 0x00]),
        Refusal(
            name: "authenticate, key handle shorter than its length",
            apdu: U2FClient.apdu(ins: 0x02, p1: 0x03, data: [UInt8](repeating: 1, count: 64) + [5, 1, 2]),
            status: [0x67, 0x00]),
        Refusal(
            name: "authenticate, bytes after the key handle",
            apdu: U2FClient.apdu(ins: 0x02, p1: 0x03, data: [UInt8](repeating: 1, count: 64) + [1, 1, 9]),
            status: [0x67, 0x00]),
        Refusal(
            name: "authenticate, P1 0x05",
            apdu: U2FClient.apdu(ins: 0x02, p1: 0x05, data: [UInt8](repeating: 1, count: 64) + [1, 1]),
            status: [0x6A, 0x80]),
        Refusal(name: "version with data", apdu: U2FClient.apdu(ins: 0x03, data: [0]), status: [0x67, 0x00]),
    ]

    @Test(arguments: refusals)
    func malformedRequestsGetTheirStatusWord(refusal: Refusal) async throws {
        let device = CommandsFixture().device
        #expect(await device.handleU2F(refusal.apdu, context: CTAPTransaction(channel: 1)) == refusal.status)
    }
}
