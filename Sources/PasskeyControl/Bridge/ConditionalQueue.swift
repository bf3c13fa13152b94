/// A session's conditional gets (``ConditionalRequest``), waiting for the test to pick a passkey,
/// oldest first, and the aborts that overtook their requests: a page's abort can arrive before
/// the request it aborts, and the request is then refused when it comes.
struct ConditionalQueue: Sendable {
    /// The requests waiting, oldest first.
    private(set) var pending: [ConditionalRequest] = []
    /// Requests aborted before they arrived, as `authenticator ID, request ID`, the latest 256.
    private var abortedEarly: [[String]] = []

    /// Removes and returns the requests that `match`.
    mutating func take(where match: (ConditionalRequest) -> Bool) -> [ConditionalRequest] {
        let taken = pending.filter(match)
        pending.removeAll(where: match)
        return taken
    }

    /// Removes and returns the oldest request pending on an authenticator.
    mutating func takeOldest(authenticatorID: String) -> ConditionalRequest? {
        guard let index = pending.firstIndex(where: { $0.authenticatorID == authenticatorID }) else { return nil }
        return pending.remove(at: index)
    }

    /// Remembers an abort that came before its request, keeping the latest 256.
    mutating func rememberEarlyAbort(authenticatorID: String, requestID: String) {
        abortedEarly.append([authenticatorID, requestID])
        abortedEarly = Array(abortedEarly.suffix(256))
    }

    /// Queues a request, or refuses it at once when its page aborted it already or its ID is taken.
    mutating func enqueue(_ request: ConditionalRequest) {
        if let early = abortedEarly.firstIndex(of: [request.authenticatorID, request.id]) {
            abortedEarly.remove(at: early)
            request.refuse(ConditionalRequest.aborted)
            return
        }
        guard !pending.contains(where: { $0.id == request.id && $0.authenticatorID == request.authenticatorID }) else {
            request.refuse(.invalidArgument("requestId \(request.id) is already pending"))
            return
        }
        pending.append(request)
    }
}
