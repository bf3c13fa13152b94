import FoundationEssentials
import Synchronization

/// When this store last swept each table of ``ExpiringRecord``s of its expired records at a take,
/// so that a take (the login's `auth_session`, at every webauthn grant) sweeps its table at most
/// once per ``interval`` instead of every time.
///
/// Sweeping is housekeeping, not a guarantee: a take, a peek and an update read live records only
/// (`expires_at` after the time), whether or not the expired ones are gone yet. Each instance
/// keeps its own schedule; any of them sweeping is enough.
final class SweepSchedule: Sendable {
    /// The least time, in seconds of the tenant's clock, between two sweeps of one table.
    static let interval: Double = 60

    private let swept = Mutex<[String: Double]>([:])

    /// Whether `table` is due a sweep at `time` (never swept, swept ``interval`` or more before,
    /// or after `time`: the clock went back); when it is, it counts as swept at `time` from now on.
    func isDue(_ table: String, at time: Date) -> Bool {
        let now = time.storedValue
        return swept.withLock { swept in
            if let last = swept[table], last <= now, now - last < Self.interval { return false }
            swept[table] = now
            return true
        }
    }
}
