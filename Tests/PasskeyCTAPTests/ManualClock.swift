import PasskeyCTAP
import Synchronization

/// A clock the test moves by hand, so windows and locks are tested without sleeping.
final class ManualClock: Sendable {
    private let instant = Mutex(ContinuousClock.now)

    func advance(by duration: Duration) {
        instant.withLock { $0 = $0.advanced(by: duration) }
    }

    var clock: CTAPClock {
        CTAPClock { self.instant.withLock { $0 } }
    }
}
