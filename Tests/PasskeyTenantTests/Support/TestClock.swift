import Foundation
import PasskeyTenant
import Synchronization

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let date: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        date = Mutex(start)
    }

    var now: Date { date.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        date.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    var tenantClock: TenantClock {
        TenantClock { self.now }
    }
}
