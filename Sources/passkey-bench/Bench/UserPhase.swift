import Foundation
import PasskeyKit

/// One flow run once per virtual user, K at a time: users per second and the latencies of one
/// flow. What `passkey-bench e2e` (signups, logins) and `passkey-bench seed` (seeds beside
/// signups) measure.
struct UserPhase: Encodable {
    let perSecond: Double
    let p50: Double
    let p99: Double

    enum CodingKeys: String, CodingKey {
        case perSecond = "per_second"
        case p50 = "p50_ms"
        case p99 = "p99_ms"
    }

    /// Runs `body` once per user, `concurrency` at a time, and times it.
    static func run(
        _ users: [VirtualUser], concurrency: Int,
        _ body: @escaping @Sendable (Int, VirtualUser) async throws -> some Sendable
    ) async throws -> UserPhase {
        let clock = ContinuousClock()
        let start = clock.now
        let workers = min(concurrency, users.count)
        let latencies = try await withThrowingTaskGroup(of: Latencies.self) { group in
            // Worker w takes users w, w + K, w + 2K, …: equal shares, no shared counter.
            for worker in 0..<workers {
                group.addTask {
                    var latencies = Latencies()
                    for index in stride(from: worker, to: users.count, by: workers) {
                        let begun = clock.now
                        _ = try await body(index, users[index])
                        latencies.record(clock.now - begun)
                    }
                    return latencies
                }
            }
            return try await group.reduce(into: Latencies()) { $0.add($1) }
        }
        let elapsed = (clock.now - start).seconds
        return UserPhase(
            perSecond: Double(users.count) / elapsed, p50: latencies.milliseconds(atPercentile: 50),
            p99: latencies.milliseconds(atPercentile: 99))
    }

    /// `12.3  p50 4.5 ms  p99 6.7 ms`.
    var text: String {
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        return "\(f(perSecond))  p50 \(f(p50)) ms  p99 \(f(p99)) ms"
    }
}
