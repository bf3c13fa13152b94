import Synchronization

/// U2F's test of user presence: answered at once, and asked again by the client until the user
/// is present (FIDO U2F Raw Message Formats v1.2 §4.1, §5.1: `SW_CONDITIONS_NOT_SATISFIED`, "the
/// FIDO client should retry"). U2F HID has no keep-alive, so a U2F request never waits for a
/// touch the way a CTAP2 one does (``UserPresence/require(_:in:)``).
///
/// The device's ``UserPresence`` is asked once for a series of polls: the first request starts
/// its check; each next one for the same purpose (command and application) looks whether it has
/// answered, waiting at most ``grace`` (so a policy that answers at once, `.automatic` or `.deny`,
/// answers the first request). An answer is spent by the request that sees it. A check that has
/// not answered within the policy's timeout, and a presence not spent within ``validity``, are
/// dropped, so a touch for one request never serves another long after; a client's
/// `CTAPHID_CANCEL` ends the wait, answered as "not present".
final class U2FPresence: Sendable {
    /// How long a request waits for the check before it answers "not present" (well under the
    /// 100 ms a CTAPHID client waits before it would expect a keep-alive).
    static let grace: Duration = .milliseconds(50)
    /// How long a presence, once confirmed, waits for the request that spends it.
    static let validity: Duration = .seconds(10)

    /// One check of ``UserPresence``: for what, since when, and its answer once it has one.
    private struct Check: Sendable {
        let request: UserPresenceRequest
        let started: ContinuousClock.Instant
        let asking: Task<Void, Never>
        let answer: Answer
    }

    /// The answer of a check and when it came.
    private final class Answer: Sendable {
        private let value = Mutex<(present: Bool, at: ContinuousClock.Instant)?>(nil)
        var current: (present: Bool, at: ContinuousClock.Instant)? { value.withLock { $0 } }
        func set(_ present: Bool) { value.withLock { $0 = (present, .now) } }
    }

    private let current = Mutex<Check?>(nil)

    /// Whether the user is present for `request`, asking `presence` when no check for it is under
    /// way.
    ///
    /// - Parameters:
    ///   - presence: the device's policy.
    ///   - request: what the presence is for.
    ///   - transaction: the CTAPHID transaction, whose cancel ends the wait.
    /// - Returns: true when the user is present now; false when not (yet).
    func test(_ presence: UserPresence, _ request: UserPresenceRequest, in transaction: CTAPTransaction) async
        -> Bool
    {
        let now = ContinuousClock.now
        let check = current.withLock { current in
            if let existing = current, existing.request == request, Self.isLive(existing, now, presence.timeout) {
                return existing
            }
            current?.asking.cancel()
            let answer = Answer()
            let asking = Task { answer.set(await presence.check(request)) }
            let made = Check(request: request, started: now, asking: asking, answer: answer)
            current = made
            return made
        }
        let deadline = now.advanced(by: Self.grace)
        while true {
            if let answer = check.answer.current {
                current.withLock { current in
                    if current?.answer === check.answer { current = nil }
                }
                return answer.present && ContinuousClock.now < answer.at.advanced(by: Self.validity)
            }
            if transaction.isCancelled() || ContinuousClock.now >= deadline {
                return false
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Whether a check may still serve: unanswered within the policy's timeout, or present within
    /// ``validity``.
    private static func isLive(_ check: Check, _ now: ContinuousClock.Instant, _ timeout: Duration) -> Bool {
        guard let answer = check.answer.current else {
            return now < check.started.advanced(by: timeout)
        }
        return answer.present && now < answer.at.advanced(by: validity)
    }
}
