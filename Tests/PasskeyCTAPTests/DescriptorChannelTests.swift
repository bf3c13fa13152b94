import BlockingIO
import Dispatch
import Glibc
import Testing

/// BlockingIO's `DescriptorChannel` on a stream socket, as the CTAPHID socket server uses it:
/// messages sent at once or queued behind a full socket keep their order, and records that one
/// read brings are each handed on.
@Suite struct DescriptorChannelTests {
    /// A connected pair of Unix stream sockets.
    private static func socketPair() throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        return (ends[0], ends[1])
    }

    /// Reads `count` bytes from `descriptor` off the concurrency pool (the read blocks).
    private static func read(_ count: Int, from descriptor: Int32) async -> [UInt8] {
        await withCheckedContinuation { done in
            DispatchQueue(label: "DescriptorChannelTests.read").async {
                var bytes = [UInt8](repeating: 0, count: count)
                var filled = 0
                while filled < count {
                    let read = bytes.withUnsafeMutableBytes {
                        Glibc.read(descriptor, $0.baseAddress! + filled, count - filled)
                    }
                    guard read > 0 else { break }
                    filled += read
                }
                done.resume(returning: Array(bytes.prefix(filled)))
            }
        }
    }

    /// Far more than a socket buffer holds, sent while the peer reads nothing: the first go out at
    /// once, the rest wait on the writer queue, and the peer reads every one, in order.
    @Test func messagesKeepTheirOrderWhenTheSocketIsFull() async throws {
        let (near, far) = try Self.socketPair()
        defer { close(far) }
        let channel = try DescriptorChannel(near, path: "socketpair", framing: .records(size: 64), closing: true)
        let messages: [[UInt8]] = (0..<2000).map { (index: Int) -> [UInt8] in
            (0..<16).flatMap { (record: Int) -> [UInt8] in
                [UInt8(index & 0xFF), UInt8(index >> 8), UInt8(record)] + [UInt8](repeating: 0x5A, count: 61)
            }
        }
        for message in messages { channel.send(message) }
        let read = await Self.read(messages.count * 16 * 64, from: far)
        #expect(read == Array(messages.joined()))
        #expect(await channel.finish() == nil)
    }

    /// Three and a half records in one write, then the end: three records, each whole, and the
    /// partial one dropped.
    @Test func everyRecordOfOneReadIsHandedOn() async throws {
        let (near, far) = try Self.socketPair()
        let channel = try DescriptorChannel(near, path: "socketpair", framing: .records(size: 64), closing: true)
        let records = (0..<3).map { [UInt8](repeating: UInt8($0 + 1), count: 64) }
        let bytes = Array(records.joined()) + [UInt8](repeating: 9, count: 32)
        #expect(bytes.withUnsafeBytes { Glibc.write(far, $0.baseAddress, $0.count) } == bytes.count)
        close(far)
        var received: [[UInt8]] = []
        for await message in channel.messages() {
            received.append(message)
            channel.taken()
        }
        #expect(received == records)
        #expect(await channel.finish() == nil)
    }
}
