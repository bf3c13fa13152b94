import Foundation

/// One line of `passkey-bench`: a measured rate or latency and, for a rate, its ratio to the
/// baseline measured in the same run (machines are shared and noisy; ratios travel, absolute
/// figures do not).
struct BenchFigure: Encodable {
    /// A stable identifier (`memory-get`).
    let name: String
    /// What was measured, in words.
    let label: String
    /// The figure.
    let value: Double
    /// Its unit (`ops/s`, `ms`, `MB`).
    let unit: String
    /// The baseline figure's name, for a ratio.
    let baseline: String?
    /// `value / baseline`.
    let ratio: Double?
    /// The least acceptable ratio (or, for `ms` and `MB`, the greatest acceptable value).
    let target: Double?
    /// Whether the target is met; `nil` without a target, or for a rate whose baseline gave no
    /// ratio. Decided once, when the figure is made, and printed and encoded as it is.
    let meetsTarget: Bool?

    init(
        name: String, label: String, value: Double, unit: String, baseline: String? = nil, ratio: Double? = nil,
        target: Double? = nil
    ) {
        self.name = name
        self.label = label
        self.value = value
        self.unit = unit
        self.baseline = baseline
        self.ratio = ratio
        self.target = target
        self.meetsTarget = Self.meets(target, value: value, ratio: ratio, baseline: baseline)
    }

    /// A ratio meets its target from above, a latency or a size from below.
    private static func meets(_ target: Double?, value: Double, ratio: Double?, baseline: String?) -> Bool? {
        guard let target else { return nil }
        if let ratio { return ratio >= target }
        if baseline != nil { return nil }
        return value < target
    }

    /// Measures `body` and its baseline alternately (``Throughput/paired(rounds:seconds:_:baseline:)``)
    /// and returns the baseline's figure, then `body`'s with its ratio to the baseline.
    static func paired(
        _ name: String, _ label: String, baseline: String, baselineLabel: String, target: Double?, rounds: Int,
        seconds: Double, _ body: () async throws -> Void, against base: () async throws -> Void
    ) async throws -> [BenchFigure] {
        let (value, reference) = try await Throughput.paired(rounds: rounds, seconds: seconds, body, baseline: base)
        return pair(name, label, value, baseline: baseline, baselineLabel: baselineLabel, reference, target: target)
    }

    /// A rate and its baseline's, taken alternately from the caller's closures
    /// (``Throughput/pairedRates(rounds:_:baseline:)``), as the baseline's figure, then the rate's.
    static func pairedRates(
        _ name: String, _ label: String, baseline: String, baselineLabel: String, target: Double?, rounds: Int,
        _ value: () async throws -> Double, against base: () async throws -> Double
    ) async throws -> [BenchFigure] {
        let (value, reference) = try await Throughput.pairedRates(rounds: rounds, value, baseline: base)
        return pair(name, label, value, baseline: baseline, baselineLabel: baselineLabel, reference, target: target)
    }

    private static func pair(
        _ name: String, _ label: String, _ value: Double, baseline: String, baselineLabel: String,
        _ reference: Double, target: Double?
    ) -> [BenchFigure] {
        // A baseline that did nothing in its rounds (a stalled machine, a tiny --seconds) has no
        // ratio to give: `nil`, never an infinity that JSON cannot carry.
        let ratio = reference > 0 ? value / reference : nil
        return [
            BenchFigure(name: baseline, label: baselineLabel, value: reference, unit: "ops/s"),
            BenchFigure(
                name: name, label: label, value: value, unit: "ops/s", baseline: baseline, ratio: ratio,
                target: target),
        ]
    }

    /// The text line.
    var line: String {
        var line = label.padding(toLength: 46, withPad: " ", startingAt: 0)
        line += format(value).leftPadded(to: 12) + " " + unit
        if let ratio, let baseline {
            line += "   " + format(ratio, decimals: 2) + " × " + baseline
        }
        if let target, let meetsTarget {
            let comparison =
                ratio != nil ? "≥ \(format(target, decimals: 2))" : "< \(format(target, decimals: 0)) \(unit)"
            line += "   target \(comparison): " + (meetsTarget ? "met" : "MISSED")
        }
        return line
    }

    private func format(_ number: Double, decimals: Int? = nil) -> String {
        let places = decimals ?? (number >= 100 ? 0 : number >= 1 ? 2 : 4)
        return number.formatted(.number.precision(.fractionLength(places)).grouping(.never))
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
