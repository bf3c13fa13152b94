/// What came of asking the user once, for presence (``UserPresence``) or verification
/// (``UserVerification``): a yes, a no, the client's cancel, or no answer in time.
enum UserAnswer: Sendable {
    case yes, no, cancelled, timedOut

    /// Asks `check` while keeping the transaction alive: `CTAPHID_KEEPALIVE` with `UPNEEDED`
    /// every 100 ms (CTAP 2.1 §11.2.9.2.1), the client's `CTAPHID_CANCEL` honoured, and `timeout`.
    /// The first answer wins; the other side is cancelled without being waited for, so a slow
    /// prompt cannot wedge the device. A policy that asks no one gives its `fixed` answer at
    /// once, with no task or timer behind it.
    static func wait(
        for request: UserPresenceRequest, asking check: @escaping @Sendable (UserPresenceRequest) async -> Bool,
        fixed: Bool?, timeout: Duration, in transaction: CTAPTransaction
    ) async -> UserAnswer {
        if transaction.isCancelled() { return .cancelled }
        if let fixed { return fixed ? .yes : .no }
        let (answers, continuation) = AsyncStream.makeStream(of: UserAnswer.self)
        let asking = Task {
            continuation.yield(await check(request) ? .yes : .no)
        }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let ticking = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                if transaction.isCancelled() {
                    continuation.yield(.cancelled)
                    return
                }
                if ContinuousClock.now >= deadline {
                    continuation.yield(.timedOut)
                    return
                }
                transaction.keepAlive(.userPresenceNeeded)
            }
        }
        var iterator = answers.makeAsyncIterator()
        let answer = await iterator.next() ?? .cancelled
        asking.cancel()
        ticking.cancel()
        continuation.finish()
        return answer
    }
}
