import WebAuthn

/// One test of the suite: an ID, the rule it checks, the verdict the rule demands, and the
/// steps that bring the server to that verdict.
public struct ConformanceTest: Sendable, Identifiable {
    /// The verdict a rule demands of the judged call.
    public enum Verdict: String, Sendable, Hashable, CaseIterable {
        /// The server must accept the judged credential.
        case accepted
        /// The server must refuse it.
        case refused
        /// The options the server gives must meet the rule (no credential is judged).
        case checked
    }

    /// `GROUP-NAME`, e.g. `AUTH-REFUSE-COUNTER`; stable, so reports can be compared.
    public let id: String
    public let group: ConformanceGroup
    /// What the test does, in a line.
    public let title: String
    /// The rule: the WebAuthn L3 § and step, the CTAP or binding profile section.
    public let rule: String
    public let expected: Verdict
    /// The steps: the answer to the judged call (for ``Verdict/accepted`` and
    /// ``Verdict/refused``), or `nil` once the options were checked.
    let steps: @Sendable (ConformanceRun) async throws(ConformanceError) -> ConformanceAnswer?

    init(
        _ id: String, _ group: ConformanceGroup, _ expected: Verdict, _ title: String, rule: String,
        steps: @escaping @Sendable (ConformanceRun) async throws(ConformanceError) -> ConformanceAnswer?
    ) {
        self.id = id
        self.group = group
        self.title = title
        self.rule = rule
        self.expected = expected
        self.steps = steps
    }

    /// Runs the test and judges the server's verdict.
    public func run(_ run: ConformanceRun) async -> ConformanceResult {
        if let reason = run.target.notApplicable[id] {
            return result(.skipped, "not applicable: \(reason)")
        }
        do {
            let answer = try await steps(run)
            switch (expected, answer) {
            case (.accepted, let answer?) where !answer.accepted:
                return result(.failed, "refused what the rule accepts: \(answer.summary)")
            case (.refused, let answer?) where answer.accepted:
                return result(.failed, "accepted what the rule refuses (HTTP \(answer.status))")
            case (.refused, let answer?):
                return result(.passed, "refused: \(answer.summary)")
            default:
                return result(.passed, "")
            }
        } catch where error.code == .skipped {
            return result(.skipped, error.reason)
        } catch {
            return result(.failed, error.description)
        }
    }

    private func result(_ outcome: ConformanceResult.Outcome, _ reason: String) -> ConformanceResult {
        ConformanceResult(
            id: id, group: group, title: title, rule: rule, expected: expected, outcome: outcome, reason: reason)
    }
}

/// The groups of the suite, by the part of a server they check.
public enum ConformanceGroup: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The options a server gives (`OPT`).
    case options = "OPT"
    /// Registrations to accept and refuse, whatever their attestation (`REG`).
    case registration = "REG"
    /// Each attestation format, good and broken (`ATT`).
    case attestation = "ATT"
    /// Assertions to accept and refuse (`AUTH`).
    case authentication = "AUTH"
    /// Authenticators FIDO metadata lists as compromised, or does not list (`MDS`).
    case metadata = "MDS"

    /// The group's name in a report.
    public var title: String {
        switch self {
        case .options: "options"
        case .registration: "registration"
        case .attestation: "attestation formats"
        case .authentication: "authentication"
        case .metadata: "metadata"
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!  // both are cases
    }
}
