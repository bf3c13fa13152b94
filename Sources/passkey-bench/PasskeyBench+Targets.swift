import ArgumentParser
import BlockingIO
import Foundation
import PasskeyTenant

extension PasskeyBench {
    /// `passkey-bench targets` (what `make bench` runs): every figure with a target, each measured
    /// alternately with its baseline in the same run, as one table with PASS or MISS (issue 30).
    struct TargetsBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "targets",
            abstract: "Every figure with a target beside its baseline, as one table with PASS or MISS.",
            discussion: """
                Runs the figure sources of the other subcommands with the settings below: the authenticator's \
                ceremonies (and soft-webauthn's create beside ours), registration verification per attestation \
                format, assertion verification beside py_webauthn and duo-labs/webauthn (Go), a get over passkey \
                serve beside an empty authenticated route, logins end to end beside the tenant's RS256 ceiling, \
                logins at one tenant instance on PostgreSQL (--db) beside the same ceiling, CTAP getAssertion over \
                the CTAPHID socket beside in process, and the page bridge beside Chromium's own virtual \
                authenticator. A group whose peer, browser or database is missing is marked NOT MEASURED with the \
                reason; the others still run.
                """)

        @Option(help: "Seconds per measurement.")
        var seconds = 0.5

        @Option(help: "Alternating rounds per figure; the median is reported.")
        var rounds = 3

        @Option(name: .customLong("file-create-runs"), help: "Runs of the file-store create (4 of 5 must pass).")
        var fileCreateRuns = 5

        @Option(name: .customLong("e2e-runs"), help: "Runs of the end-to-end logins (every one must pass).")
        var endToEndRuns = 3

        @Option(help: "Virtual users of each end-to-end run.")
        var users = 300

        @Option(help: "Virtual users in flight at once, end to end.")
        var concurrency = 4

        @Option(name: .customLong("serve-seconds"), help: "Seconds per measurement over passkey serve.")
        var serveSeconds = 2.0

        @Option(help: "A PostgreSQL database URL for the PostgreSQL row (make bench starts a cluster for it).")
        var db: String?

        @Option(help: "The test vectors folder (registration verification per format).")
        var vectors = "Vectors"

        @Option(help: "The Python of the test virtual environment (peers and browser; make setup makes it).")
        var python = ".venv/bin/python"

        @Option(name: .customLong("peer-script"), help: "soft-webauthn's measuring script.")
        var peerScript = "Tests/Interop/peer_bench.py"

        @Option(parsing: .upToNextOption, help: "Groups not to measure.")
        var skip: [Group] = []

        @Flag(help: "Print JSON.")
        var json = false

        /// The figure sources, each measured as one unit.
        enum Group: String, CaseIterable, ExpressibleByArgument {
            case ceremonies, peer, fileCreate = "file-create", registration, verifiers, serve, e2e, postgres, ctap
            case bridge
        }

        func validate() throws {
            guard seconds > 0, rounds > 0, fileCreateRuns > 0, endToEndRuns > 0, users > 0, concurrency > 0,
                serveSeconds > 0
            else {
                throw ValidationError("every count and duration is positive")
            }
            if let db, !PostgresURL.isPostgres(db) {
                throw ValidationError("--db is a postgres:// or postgresql:// URL.")
            }
        }

        /// The rows, in the order of issue 46's table (and the page bridge's of issue 30), with the group
        /// that measures each.
        private var table: [(group: Group, row: TargetRow)] {
            [
                (.ceremonies, TargetRow("memory-get", "get, in-memory store, options JSON in, response JSON out")),
                (.peer, TargetRow("memory-create-vs-peer", "create, in-memory store, beside soft-webauthn (Python)")),
                (.ceremonies, TargetRow("memory-create-vs-keygen-seal", "create, in-memory store, beside its floor")),
                (.ceremonies, TargetRow("file-get-platform", "get, file store, platform profile")),
                (
                    .fileCreate,
                    TargetRow(
                        "file-create-platform", "create, file store, platform profile", runs: fileCreateRuns,
                        required: fileCreateRuns - fileCreateRuns / 5)
                ),
                (.registration, TargetRow("rp-verify-registration-packed-es256", "verify registration, packed x5c")),
                (.registration, TargetRow("rp-verify-registration-tpm-es256", "verify registration, tpm")),
                (
                    .registration,
                    TargetRow("rp-verify-registration-android-key-pixel", "verify registration, android-key (Pixel)")
                ),
                (
                    .ceremonies,
                    TargetRow(
                        "rp-verify-vs-raw-prepared", "verify an assertion, beside a raw OpenSSL verify (prepared key)")
                ),
                (.verifiers, TargetRow("rp-verify-vs-py-webauthn", "verify an assertion, beside py_webauthn 3")),
                (
                    .verifiers,
                    TargetRow("rp-verify-vs-go-webauthn", "verify an assertion, beside duo-labs/webauthn (Go)")
                ),
                (.serve, TargetRow("serve-get-k8", "get over passkey serve, 8 clients")),
                (
                    .e2e,
                    TargetRow(
                        "e2e-login", "logins end to end, \(users) users, \(concurrency) at a time",
                        runs: endToEndRuns)
                ),
                (.postgres, TargetRow("tenant-postgres-1", "logins over HTTP, one instance on PostgreSQL, K=8")),
                (.ctap, TargetRow("ctap-socket-get-assertion", "CTAP getAssertion over the CTAPHID socket")),
                (.bridge, TargetRow("bridge-get-chromium", "get through the page bridge, Chromium")),
                (.bridge, TargetRow("bridge-create-chromium", "create through the page bridge, Chromium")),
            ]
        }

        func run() async throws {
            let scratch = try ScratchDirectory("passkey-bench-targets")
            defer { scratch.remove() }
            let table = table
            var rows = table.map(\.row)
            for group in Group.allCases {
                let indices = table.indices.filter { table[$0].group == group }
                guard !skip.contains(group) else {
                    for index in indices { rows[index].notMeasured = "skipped (--skip \(group.rawValue))" }
                    continue
                }
                let names = Set(indices.map { rows[$0].name })
                do {
                    for run in 0..<runs(of: group) {
                        let figures = try await measure(group, names: names, scratch: scratch.path + "/\(run)")
                        for index in indices { rows[index].record(figures) }
                    }
                } catch {
                    BenchOutput.progress("\(group.rawValue): not measured: \(error)")
                    for index in indices { rows[index].notMeasured = "\(error)" }
                }
            }
            if json {
                try BenchOutput.json(rows)
            } else {
                for row in rows {
                    for line in row.lines { print(line) }
                }
                let verdicts = TargetRow.Verdict.allCases.map { verdict in
                    "\(rows.count { $0.verdict == verdict }) \(verdict.rawValue)"
                }
                print("\(rows.count) rows: " + verdicts.joined(separator: ", "))
            }
        }

        private func runs(of group: Group) -> Int {
            switch group {
            case .fileCreate: fileCreateRuns
            case .e2e: endToEndRuns
            default: 1
            }
        }

        /// One run of a group's figure source.
        private func measure(_ group: Group, names: Set<String>, scratch: String) async throws -> [BenchFigure] {
            let progress: (String) -> Void = BenchOutput.progress
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            switch group {
            case .ceremonies, .fileCreate, .peer:
                return try await CeremonyBench(
                    seconds: seconds, rounds: rounds, scratch: scratch, wants: names.contains,
                    peer: group == .peer ? PeerBench(python: python, script: peerScript) : nil, flatStoreSize: 0
                ).figures(progress: progress)
            case .registration:
                return try await AttestationBench(
                    vectors: URL(fileURLWithPath: vectors), seconds: seconds, rounds: rounds, wants: names.contains
                ).figures(progress: progress)
            case .verifiers:
                return try await VerifierPeerBench(seconds: seconds, rounds: rounds, python: python, scratch: scratch)
                    .figures(progress: progress)
            case .serve:
                return try await ServeBench.targetFigures(seconds: serveSeconds, rounds: rounds, clients: 8)
            case .e2e:
                return try await EndToEndBench.figures(users: users, concurrency: concurrency, seconds: seconds)
            case .postgres:
                guard let db else {
                    throw BenchError("no --db: make bench starts a PostgreSQL cluster and passes one")
                }
                return try await TenantBench.postgresTargetFigures(
                    database: db, clients: 8, seconds: serveSeconds, rounds: rounds)
            case .ctap:
                return try await CTAPBench.figures(seconds: seconds, rounds: rounds)
            case .bridge:
                return try await BridgeBench(seconds: seconds, rounds: rounds, python: python)
                    .figures(progress: progress)
            }
        }
    }
}
