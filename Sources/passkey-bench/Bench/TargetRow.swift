import Foundation

/// One row of `passkey-bench targets`: a figure with a target (issue 30), measured in one or more
/// runs, each run beside its own baseline, and how many runs must meet the target.
struct TargetRow: Encodable {
    /// The figure's name (`memory-get`).
    let name: String
    /// What the row measures, in words.
    let title: String
    /// How many runs are taken.
    let planned: Int
    /// How many of the runs must meet the target ("≥ 0.8 in 4 of 5 runs"); every run by default.
    let required: Int
    /// Each run's figure, with its ratio and target.
    private(set) var runs: [BenchFigure] = [] {
        didSet { verdict = judged() }
    }
    /// Each run's baseline figure.
    private(set) var baselines: [BenchFigure] = []
    /// Why the row has no figure (a peer or browser that is not installed, a failed measurement).
    var notMeasured: String? {
        didSet { verdict = judged() }
    }
    /// The verdict a reader looks for, kept as the runs come in.
    private(set) var verdict = Verdict.notMeasured

    init(_ name: String, _ title: String, runs planned: Int = 1, required: Int? = nil) {
        self.name = name
        self.title = title
        self.planned = planned
        self.required = required ?? planned
    }

    /// The verdict a reader looks for.
    enum Verdict: String, Encodable, CaseIterable {
        case pass = "PASS"
        case miss = "MISS"
        case notMeasured = "NOT MEASURED"
    }

    /// PASS when at least ``required`` runs meet the target, MISS when fewer do, NOT MEASURED when
    /// a run could not be taken.
    private func judged() -> Verdict {
        if notMeasured != nil || runs.count < planned { return .notMeasured }
        return runsMeetingTarget >= required ? .pass : .miss
    }

    /// The runs whose ratio meets the target.
    var runsMeetingTarget: Int {
        runs.count { $0.meetsTarget == true }
    }

    /// Takes one run's figures: the row's own and its baseline. Several rows' baselines share a
    /// name (`raw-es256-sign`), each measured beside its own figure and put just before it
    /// (``BenchFigure/paired(_:_:baseline:baselineLabel:target:rounds:seconds:_:against:)``), so
    /// that one is the row's; a baseline measured once for several figures is found by name.
    mutating func record(_ figures: [BenchFigure]) {
        guard let position = figures.firstIndex(where: { $0.name == name }) else { return }
        let figure = figures[position]
        runs.append(figure)
        let before = figures[..<position].last
        if let baseline = before?.name == figure.baseline
            ? before : figures.first(where: { $0.name == figure.baseline })
        {
            baselines.append(baseline)
        }
    }

    /// The row as text: the figure, its baseline, the ratio of every run, the target and the verdict.
    var lines: [String] {
        guard let last = runs.last else {
            return [title, "    not measured: \(notMeasured ?? "no run")"]
        }
        let baseline = baselines.last.map { "\($0.label) (\(Self.rate($0.value)) \($0.unit))" } ?? last.baseline ?? ""
        let ratios = runs.map { $0.ratio.map { Self.ratio($0) } ?? "—" }.joined(separator: " ")
        let target = last.target.map { "≥ " + Self.ratio($0) } ?? "—"
        let requirement =
            planned == 1
            ? "" : required == planned ? " in every one of \(planned) runs" : " in \(required) of \(planned) runs"
        var verdict = verdict.rawValue
        if runs.count > 1 { verdict += " (\(runsMeetingTarget) of \(runs.count))" }
        var lines = [
            title,
            "    \(Self.rate(last.value)) \(last.unit)   beside \(baseline)   ratio \(ratios)   target \(target)\(requirement)   \(verdict)",
        ]
        if let notMeasured {
            lines.append("    a run not measured: \(notMeasured)")
        }
        return lines
    }

    private static func rate(_ value: Double) -> String {
        value.formatted(.number.precision(.fractionLength(value >= 100 ? 0 : 1)))
    }

    private static func ratio(_ value: Double) -> String {
        value.formatted(.number.precision(.fractionLength(2)).grouping(.never))
    }
}
