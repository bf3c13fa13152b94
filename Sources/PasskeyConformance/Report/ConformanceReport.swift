public import FoundationEssentials

/// What a run found: each test's outcome, in the suite's order, and the counts.
public struct ConformanceReport: Sendable, Hashable, Codable {
    /// The server (its URL, or a name for an in-process target).
    public let server: String
    public let passed: Int
    public let failed: Int
    public let skipped: Int
    public let tests: [ConformanceResult]

    public init(server: String, tests: [ConformanceResult]) {
        self.server = server
        self.tests = tests
        passed = tests.count { $0.outcome == .passed }
        failed = tests.count { $0.outcome == .failed }
        skipped = tests.count { $0.outcome == .skipped }
    }

    /// Whether no test failed.
    public var succeeded: Bool { failed == 0 }

    /// Each test's outcome by ID: the form a report is kept in a repository to compare runs.
    public var outcomes: [String: ConformanceResult.Outcome] {
        Dictionary(uniqueKeysWithValues: tests.map { ($0.id, $0.outcome) })
    }

    /// The terminal summary: a line per group with its counts, then each failure with its reason.
    public var summary: String {
        var lines: [String] = []
        for group in ConformanceGroup.allCases {
            let results = tests.filter { $0.group == group }
            guard !results.isEmpty else { continue }
            let counts = ConformanceResult.Outcome.allCases.map { outcome in
                "\(results.count { $0.outcome == outcome }) \(outcome.rawValue)"
            }
            let label = "\(group.rawValue) \(group.title)"
            lines.append(label + String(repeating: " ", count: max(1, 26 - label.count)) + counts.joined(separator: ", "))
        }
        for result in tests where result.outcome == .failed {
            lines.append("FAIL \(result.id): \(result.title) (\(result.rule)): \(result.reason)")
        }
        lines.append("\(passed) passed, \(failed) failed, \(skipped) skipped against \(server)")
        return lines.joined(separator: "\n")
    }
}
