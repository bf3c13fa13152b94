import Synchronization

/// A session's recent ``ControlEvent``s, numbered, and the readers waiting for the next ones.
///
/// The last ``capacity`` events are kept, so a reader that reconnects with the last number it
/// saw (SSE's `Last-Event-ID`, or `?after=`) misses nothing that is still kept. Recording never
/// waits: each reader has a buffer of the same size, and a reader that falls further behind
/// loses the oldest.
final class ControlEventLog: Sendable {
    /// How many events are kept, and buffered per reader.
    static let capacity = 1024

    private struct State {
        /// The kept events, a ring once full: the oldest at `oldest`, so keeping one more
        /// overwrites one slot instead of moving the whole log.
        var kept: [ControlEvent] = []
        var oldest = 0
        var lastSeq = 0
        var readers: [Int: AsyncStream<ControlEvent>.Continuation] = [:]
        var nextReader = 0

        /// Keeps `event`, dropping the oldest past ``ControlEventLog/capacity``.
        mutating func keep(_ event: ControlEvent) {
            if kept.count < ControlEventLog.capacity {
                kept.append(event)
            } else {
                kept[oldest] = event
                oldest = (oldest + 1) % kept.count
            }
        }

        /// The kept events numbered after `seq`, oldest first.
        func kept(after seq: Int) -> [ControlEvent] {
            (kept[oldest...] + kept[..<oldest]).filter { $0.seq > seq }
        }
    }

    private let state = Mutex(State())

    /// Numbers and keeps an event, and hands it to every reader.
    func record(_ event: ControlEvent) {
        state.withLock { state in
            var event = event
            state.lastSeq += 1
            event.seq = state.lastSeq
            state.keep(event)
            for reader in state.readers.values {
                reader.yield(event)
            }
        }
    }

    /// The kept events numbered after `seq`.
    func events(after seq: Int) -> [ControlEvent] {
        state.withLock { state in state.kept(after: seq) }
    }

    /// The kept events after `seq`, then every new one, until the reader stops or ``finish()``.
    func stream(after seq: Int) -> AsyncStream<ControlEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ControlEvent.self, bufferingPolicy: .bufferingNewest(Self.capacity))
        let reader = state.withLock { state in
            for event in state.kept(after: seq) {
                continuation.yield(event)
            }
            state.nextReader += 1
            state.readers[state.nextReader] = continuation
            return state.nextReader
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in _ = state.readers.removeValue(forKey: reader) }
        }
        return stream
    }

    /// Ends every reader's stream: the session is over.
    func finish() {
        let readers = state.withLock { state in
            defer { state.readers = [:] }
            return Array(state.readers.values)
        }
        for reader in readers {
            reader.finish()
        }
    }
}
