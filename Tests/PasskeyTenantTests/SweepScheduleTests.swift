import Foundation
import Testing

@testable import PasskeyTenant

/// A take sweeps its table at most once a minute per store (``SweepSchedule``), and again at
/// once when the clock went back.
@Suite struct SweepScheduleTests {
    @Test func aTableIsDueOnceAMinute() {
        let schedule = SweepSchedule()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(schedule.isDue("sessions", at: start))
        #expect(!schedule.isDue("sessions", at: start))
        #expect(!schedule.isDue("sessions", at: start.addingTimeInterval(SweepSchedule.interval - 0.5)))
        // Each table keeps its own time.
        #expect(schedule.isDue("login_transactions", at: start.addingTimeInterval(1)))
        #expect(schedule.isDue("sessions", at: start.addingTimeInterval(SweepSchedule.interval)))
        #expect(!schedule.isDue("sessions", at: start.addingTimeInterval(SweepSchedule.interval + 1)))
        // A clock that went back sweeps again.
        #expect(schedule.isDue("sessions", at: start))
    }
}
