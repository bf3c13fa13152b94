import Histogram

/// Latencies recorded in an HdrHistogram (microseconds, three significant digits), so that
/// percentiles come from the histogram rather than from sorting every sample.
struct Latencies: Sendable {
    private var histogram = Histogram<UInt64>(
        highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)

    /// Records one latency.
    mutating func record(_ duration: Duration) {
        _ = histogram.record(UInt64(max(1, (duration.seconds * 1_000_000).rounded())))
    }

    /// Adds another's recordings (one histogram per worker, merged).
    mutating func add(_ other: Latencies) {
        histogram.add(other.histogram)
    }

    /// How many latencies were recorded.
    var count: UInt64 { histogram.totalCount }

    /// The `percentile`-th percentile (0–100), in milliseconds.
    func milliseconds(atPercentile percentile: Double) -> Double {
        Double(histogram.valueAtPercentile(percentile)) / 1000
    }

    /// The latency of each call of `body(i)` for `i` in `0..<count`.
    static func measure(count: Int, _ body: (Int) async throws -> Void) async throws -> Latencies {
        let clock = ContinuousClock()
        var latencies = Latencies()
        for index in 0..<count {
            let start = clock.now
            try await body(index)
            latencies.record(clock.now - start)
        }
        return latencies
    }
}
