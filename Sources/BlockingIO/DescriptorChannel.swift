import Dispatch
import Glibc
import Synchronization
import SystemPackage

/// A descriptor that carries whole messages both ways, kept off the Swift concurrency pool: the
/// package's one transport under its CTAPHID devices, whether the descriptor is a Unix stream
/// socket carrying 64-byte reports (`passkey device --socket`) or `/dev/uhid` carrying UHID
/// events (`passkey device --uhid`).
///
/// Reading blocks, so the reader runs on a dispatch queue of its own: it waits for the descriptor
/// or a wake-up (which is how ``stop()`` interrupts it), reads whole messages as the ``Framing``
/// says, and hands them on in order through ``messages()``, at most `readAhead` ahead of the
/// consumer, who calls ``taken()`` after each: a peer that floods is slowed down, not buffered.
/// Writes keep the order they were sent in: a socket message is sent at once, without blocking,
/// when no earlier write is waiting and the socket has room (so an answer costs no thread hand-off);
/// the rest go through a serial queue of their own. A stream socket's reader takes every whole
/// record one read brings, so a message of several records costs one wake-up, not one each. The
/// first failure of either direction, a ``SystemCallError``, stops the reader and is kept for
/// ``finish(writing:)``.
///
/// ```swift
/// let channel = try DescriptorChannel(descriptor, path: path, framing: .records(size: 64), closing: true)
/// for await message in channel.messages() {
///     channel.send(answer(to: message))
///     channel.taken()
/// }
/// let failure = await channel.finish()
/// ```
///
/// `Sendable`: the descriptor and the queues never change; the failure and the closed flag are
/// behind a mutex.
package final class DescriptorChannel: Sendable {
    /// How the bytes of the descriptor divide into messages.
    package enum Framing: Sendable {
        /// A byte stream of messages of one size (a stream socket): a message takes as many reads
        /// and writes as it needs; the end of the stream ends the messages, and a partial message
        /// is dropped.
        case records(size: Int)
        /// One message per read and per write, of at most `maximum` bytes (a character device such
        /// as `/dev/uhid`, a `SOCK_SEQPACKET` socket): a write that takes less, and the end of the
        /// descriptor, are failures.
        case packets(maximum: Int)
    }

    private struct State {
        var failure: SystemCallError?
        var closed = false
        /// Writes handed to the writer queue and not yet done: while any is, a new message waits
        /// behind them.
        var queued = 0
    }

    private let descriptor: Int32
    private let path: String
    private let framing: Framing
    private let closing: Bool
    /// Sockets are written with `send(MSG_NOSIGNAL)`: a peer gone is an error, not a `SIGPIPE`.
    private let isSocket: Bool
    private let wakeup: Wakeup
    private let readAhead: Int
    private let room: DispatchSemaphore
    private let writer = DispatchQueue(label: "BlockingIO.DescriptorChannel.write")
    /// Entered while the reader runs, so that closing waits for it.
    private let reading = DispatchGroup()
    private let state = Mutex(State())

    /// Wraps an open descriptor.
    ///
    /// - Parameters:
    ///   - descriptor: the descriptor; left open unless `closing`.
    ///   - path: what it is, for errors.
    ///   - framing: how its bytes divide into messages.
    ///   - readAhead: how many messages the reader may read before the consumer takes them.
    ///   - closing: whether ``finish(writing:)`` closes the descriptor (it is closed here too when
    ///     this initializer fails).
    /// - Throws: ``SystemCallError`` `pipe` when the wake-up pipe cannot be made.
    package init(_ descriptor: Int32, path: String, framing: Framing, readAhead: Int = 8, closing: Bool)
        throws(SystemCallError)
    {
        do throws(SystemCallError) {
            wakeup = try Wakeup(for: path)
        } catch {
            if closing { Glibc.close(descriptor) }
            throw error
        }
        var info = stat()
        isSocket = fstat(descriptor, &info) == 0 && info.st_mode & mode_t(S_IFMT) == mode_t(S_IFSOCK)
        self.descriptor = descriptor
        self.path = path
        self.framing = framing
        self.closing = closing
        self.readAhead = readAhead
        room = DispatchSemaphore(value: readAhead)
    }

    deinit {
        if closing && !state.withLock({ $0.closed }) { Glibc.close(descriptor) }
    }

    /// Starts the reader (once): the messages in the order they came, until ``stop()``, the end
    /// of the descriptor or a failure.
    package func messages() -> AsyncStream<[UInt8]> {
        let (messages, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        reading.enter()
        DispatchQueue(label: "BlockingIO.DescriptorChannel.read").async {
            var pending: [UInt8] = []
            while let message = self.read(&pending) {
                self.room.wait()
                continuation.yield(message)
            }
            continuation.finish()
            self.reading.leave()
        }
        return messages
    }

    /// The consumer is done with one message: the reader may read another.
    package func taken() {
        room.signal()
    }

    /// Wakes the reader, which then ends ``messages()``.
    package func stop() {
        wakeup.wake()
        room.signal()
    }

    /// Writes a message after those sent before it, without waiting; a failure is kept for
    /// ``finish(writing:)`` and stops the reader. Nothing is written once the channel is closed.
    ///
    /// On a socket with nothing queued, the message goes out at once with `MSG_DONTWAIT` (a call
    /// that never blocks, so the caller may be on the Swift concurrency pool); what the socket has
    /// no room for goes to the writer queue.
    package func send(_ message: [UInt8]) {
        let rest = state.withLock { state -> ArraySlice<UInt8>? in
            guard !message.isEmpty, !state.closed else { return nil }
            var rest = message[...]
            if isSocket, case .records = framing, state.queued == 0 {
                switch sendNow(rest) {
                case .success(let count): rest = rest.dropFirst(count)
                case .failure(let error): return error == .resourceTemporarilyUnavailable ? rest : message[...]
                }
            }
            if !rest.isEmpty { state.queued += 1 }
            return rest
        }
        guard let rest, !rest.isEmpty else { return }
        writer.async {
            self.writeNow(rest)
            self.state.withLock { $0.queued -= 1 }
        }
    }

    /// One send of `bytes` that does not block.
    private func sendNow(_ bytes: ArraySlice<UInt8>) -> Result<Int, Errno> {
        bytes.withUnsafeBytes { buffer in
            SystemCall.retrying {
                Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
        }
    }

    /// Writes a message after those sent before it, and waits for it.
    ///
    /// - Throws: ``SystemCallError`` when it cannot be written whole.
    package func write(_ message: [UInt8]) async throws(SystemCallError) {
        if let failure = await onWriter({ self.writeNow(message) }) { throw failure }
    }

    /// After every message sent: writes `last` (when given), stops the reader and waits for it,
    /// closes the descriptor when the channel owns it, and gives the first failure, if any.
    ///
    /// - Parameter last: a last message (`UHID_DESTROY`).
    /// - Returns: the first failure of either direction.
    package func finish(writing last: [UInt8]? = nil) async -> SystemCallError? {
        await onWriter {
            if let last { _ = self.writeNow(last) }
            self.stop()
            self.reading.wait()
            return self.state.withLock { state in
                if self.closing && !state.closed { Glibc.close(self.descriptor) }
                state.closed = true
                return state.failure
            }
        }
    }

    /// Runs `body` on the writer queue, after what is queued, and waits for it.
    private func onWriter<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        state.withLock { $0.queued += 1 }
        return await withCheckedContinuation { done in
            writer.async {
                let value = body()
                self.state.withLock { $0.queued -= 1 }
                done.resume(returning: value)
            }
        }
    }

    private func fail(_ error: SystemCallError) {
        state.withLock { $0.failure = $0.failure ?? error }
        stop()
    }

    /// Writes a whole message now, on the writer queue.
    ///
    /// - Returns: the failure, also kept by ``fail(_:)``.
    @discardableResult
    private func writeNow(_ message: some Collection<UInt8>) -> SystemCallError? {
        guard !message.isEmpty, !state.withLock({ $0.closed }) else { return nil }
        let message = ContiguousArray(message)
        var written = 0
        while written < message.count {
            let result = message.withUnsafeBytes { buffer in
                // Not empty: the buffer has a base address.
                let start = buffer.baseAddress! + written
                let count = buffer.count - written
                return SystemCall.retrying {
                    isSocket
                        ? Glibc.send(descriptor, start, count, Int32(MSG_NOSIGNAL))
                        : Glibc.write(descriptor, start, count)
                }
            }
            let failure: SystemCallError
            switch result {
            case .success(let count) where count > 0:
                written += count
                guard case .packets = framing, written < message.count else { continue }
                failure = SystemCallError(
                    "write", path, .ioError, detail: "\(path) took \(written) of \(message.count) bytes")
            case .success:
                failure = SystemCallError(
                    "write", path, .ioError, detail: "\(path) took none of \(message.count) bytes")
            case .failure(let errno):
                failure = SystemCallError(isSocket ? "send" : "write", path, errno)
            }
            fail(failure)
            return failure
        }
        return nil
    }

    /// The next whole message: a record already read, or what the next reads bring.
    ///
    /// - Parameter pending: bytes read and not yet handed on (a stream socket's read takes what is
    ///   there, up to `readAhead` records, so one wake-up can bring a message's every record).
    /// - Returns: the message, or `nil` once stopped, at the end, or after a failure.
    private func read(_ pending: inout [UInt8]) -> [UInt8]? {
        switch framing {
        case .records(let size):
            while pending.count < size {
                guard let bytes = readOnce(capacity: size * readAhead) else { return nil }
                // The end of the stream: a partial record is dropped.
                guard !bytes.isEmpty else { return nil }
                pending += bytes
            }
            defer { pending.removeFirst(size) }
            return Array(pending.prefix(size))
        case .packets(let maximum):
            guard let bytes = readOnce(capacity: maximum) else { return nil }
            guard !bytes.isEmpty else {
                fail(SystemCallError("read", path, .ioError, detail: "\(path) closed"))
                return nil
            }
            return bytes
        }
    }

    /// Waits for the descriptor or the wake-up, and reads once.
    ///
    /// - Returns: the bytes read (none at the end), or `nil` once stopped or after a failure.
    private func readOnce(capacity: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: capacity)
        while true {
            switch wakeup.wait(for: descriptor) {
            case .failure(let errno):
                fail(SystemCallError("poll", path, errno))
                return nil
            case .success(false):
                return nil
            case .success(true):
                break
            }
            switch SystemCall.retrying({
                buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, capacity) }
            }) {
            case .failure(let errno) where errno == .resourceTemporarilyUnavailable:
                continue
            case .failure(let errno):
                fail(SystemCallError("read", path, errno))
                return nil
            case .success(let count):
                return Array(buffer.prefix(count))
            }
        }
    }
}
