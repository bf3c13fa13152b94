/// When and how long to wait before sending a request again.
///
/// A request is retried only when it is safe to repeat (the passkey challenges, user info, JWKS,
/// the refresh and revoke calls; never the webauthn grant, whose `auth_session` is single-use)
/// and only after a failure Auth0's SDK calls retryable (spec §7.3 `isRetryable`): a network
/// error, HTTP 429, or HTTP 500–599.
///
/// The wait before retry *n* (0-based) is `baseDelay × 2ⁿ`, jittered to between half and all of
/// that, at most ``maxDelay``. A 429 or 503 with `Retry-After: <seconds>` waits that long
/// instead; if that is longer than ``maxDelay`` the error is returned at once rather than
/// holding the caller.
///
/// ```swift
/// let auth = Authentication(clientId: id, domain: domain, retryPolicy: RetryPolicy(maxRetries: 4))
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// How many times a request may be sent again after its first attempt.
    public var maxRetries: Int
    /// The wait before the first retry, before jitter.
    public var baseDelay: Duration
    /// The longest wait before any retry, `Retry-After` included.
    public var maxDelay: Duration

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maxRetries: retries after the first attempt; 2 by default.
    ///   - baseDelay: the wait before the first retry; 250 ms by default.
    ///   - maxDelay: the longest wait; 10 seconds by default.
    public init(maxRetries: Int = 2, baseDelay: Duration = .milliseconds(250), maxDelay: Duration = .seconds(10)) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// Never retry.
    public static let none = RetryPolicy(maxRetries: 0)

    /// The wait before retry `attempt` (0-based), or `nil` to stop.
    ///
    /// - Parameters:
    ///   - attempt: how many retries were made already.
    ///   - retryAfter: the server's `Retry-After`, when it gave one in seconds.
    ///   - jitter: a number in `0...1`.
    func delay(beforeRetry attempt: Int, retryAfter: Duration?, jitter: Double) -> Duration? {
        guard attempt < maxRetries else { return nil }
        if let retryAfter {
            return retryAfter <= maxDelay ? retryAfter : nil
        }
        let exponential = baseDelay * (1 << min(attempt, 20))
        return min(maxDelay, exponential * (0.5 + 0.5 * min(max(jitter, 0), 1)))
    }

    /// `Retry-After` in delta-seconds (RFC 9110 §10.2.3); an HTTP-date is not read (Auth0 sends
    /// seconds) and falls back to the exponential wait.
    static func retryAfter(_ value: String?) -> Duration? {
        guard let value, let seconds = Int(value.trimmingPrefix(while: \.isWhitespace)), seconds >= 0 else {
            return nil
        }
        return .seconds(seconds)
    }
}
