public import WebAuthn

/// The FIDO2 server conformance suite: every test, each with an ID, the rule it checks and the
/// verdict the rule demands, run against a ``ConformanceTarget``.
///
/// ```swift
/// let pki = try ConformancePKI()
/// let configuration = try ConformanceConfiguration(origin: "https://example.org")
/// let target = RelyingPartyConformanceTarget(relyingParty: RelyingParty(id: "example.org"))
/// let report = await ConformanceSuite().run(against: target, configuration: configuration, pki: pki)
/// print(report.summary)
/// ```
public struct ConformanceSuite: Sendable {
    /// The tests, in report order.
    public let tests: [ConformanceTest]

    /// A suite of `tests`; all of them by default.
    public init(tests: [ConformanceTest] = ConformanceSuite.all) {
        self.tests = tests
    }

    /// Every test, group by group.
    public static var all: [ConformanceTest] {
        options + registration + attestation + authentication + metadata
    }

    /// The tests `selectors` name: each a group (`REG`) or a test ID (`REG-REFUSE-ORIGIN`), in
    /// any case.
    ///
    /// - Throws: `bad-map` naming a selector that names nothing.
    public func only(_ selectors: [String]) throws(ConformanceError) -> ConformanceSuite {
        guard !selectors.isEmpty else { return self }
        let wanted = selectors.map { $0.uppercased() }
        for selector in wanted
        where !tests.contains(where: { $0.id == selector || $0.group.rawValue == selector }) {
            throw ConformanceError(
                .badMap,
                "\(selector) is neither a group (\(ConformanceGroup.allCases.map(\.rawValue).joined(separator: ", "))) nor a test ID"
            )
        }
        return ConformanceSuite(
            tests: tests.filter { wanted.contains($0.id) || wanted.contains($0.group.rawValue) })
    }

    /// Runs every test against `target`, `parallel` at a time (each test registers users of its
    /// own, so tests never share state), and reports them in suite order.
    ///
    /// - Parameters:
    ///   - target: the server.
    ///   - configuration: the origin to claim and what the server was told.
    ///   - pki: the runner's PKI.
    ///   - name: the server's name in the report; by default the target's description.
    ///   - parallel: how many tests run at once.
    public func run(
        against target: any ConformanceTarget, configuration: ConformanceConfiguration, pki: ConformancePKI,
        name: String? = nil, parallel: Int = 4
    ) async -> ConformanceReport {
        let run = ConformanceRun(target: target, configuration: configuration, pki: pki)
        var results = [ConformanceResult?](repeating: nil, count: tests.count)
        await withTaskGroup(of: (Int, ConformanceResult).self) { group in
            var next = 0
            func start() {
                guard next < tests.count else { return }
                let index = next
                let test = tests[index]
                group.addTask { (index, await test.run(run)) }
                next += 1
            }
            for _ in 0..<max(1, parallel) { start() }
            while let (index, result) = await group.next() {
                results[index] = result
                start()
            }
        }
        return ConformanceReport(server: name ?? String(describing: target), tests: results.compactMap(\.self))
    }
}
