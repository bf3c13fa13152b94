/// One test's outcome in a run.
public struct ConformanceResult: Sendable, Hashable, Codable {
    /// Whether the server behaved as the rule demands.
    public enum Outcome: String, Sendable, Hashable, Codable, CaseIterable {
        case passed, failed, skipped
    }

    public let id: String
    public let group: ConformanceGroup
    public let title: String
    public let rule: String
    public let expected: ConformanceTest.Verdict
    public let outcome: Outcome
    /// Why it failed or was skipped; for a refusal that passed, what the server said.
    public let reason: String
}

extension ConformanceGroup: Codable {}
extension ConformanceTest.Verdict: Codable {}
