import Testing

@testable import PasskeyControl

/// A session's event log keeps the last ``ControlEventLog/capacity`` events in order, however
/// many it has dropped (a reader reconnecting with `Last-Event-ID` misses only what was dropped).
@Suite struct ControlEventLogTests {
    static func event(_ index: Int) -> ControlEvent {
        ControlEvent(.credentialAsserted, authenticatorId: "a", credentialId: [UInt8(index % 256)], rpId: "example.com")
    }

    @Test func keepsTheLastEventsInOrderPastItsCapacity() async {
        let log = ControlEventLog()
        let total = ControlEventLog.capacity * 2 + 5
        for index in 1...total {
            log.record(Self.event(index))
            if index == 3 {
                #expect(log.events(after: 0).map(\.seq) == [1, 2, 3])
            }
        }
        let kept = Array(total - ControlEventLog.capacity + 1...total)
        #expect(log.events(after: 0).map(\.seq) == kept)
        #expect(log.events(after: total - 3).map(\.seq) == [total - 2, total - 1, total])
        #expect(log.events(after: total).isEmpty)

        var stream = log.stream(after: total - 2).makeAsyncIterator()
        log.record(Self.event(total + 1))
        var read: [Int] = []
        for _ in 0..<3 { read.append(await stream.next()?.seq ?? 0) }
        #expect(read == [total - 1, total, total + 1])
        log.finish()
    }
}
