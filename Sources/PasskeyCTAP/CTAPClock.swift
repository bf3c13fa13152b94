/// Where a device reads the time: the Reset window after power-up (CTAP 2.1 §6.6) and a
/// channel's `CTAPHID_LOCK` (§11.2.9.2.2).
///
/// A value holding a closure, so tests move time by hand instead of sleeping (STYLE §4), as
/// `TenantClock` does for the tenant. Timers that only make something happen later (keep-alives,
/// a message's timeout) sleep on the real clock.
public struct CTAPClock: Sendable {
    /// The current instant.
    public var now: @Sendable () -> ContinuousClock.Instant

    /// Creates a clock reading `now`.
    ///
    /// - Parameter now: returns the current instant.
    public init(now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.now = now
    }

    /// The system's monotonic clock.
    public static let continuous = CTAPClock { .now }
}
