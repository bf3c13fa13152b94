import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey-bench targets` (what `make bench` runs) as a user runs it: every row of the targets
/// table, each with its runs, baselines and verdict (speed is the bench's output, never a test's
/// verdict).
@Suite struct TargetsBenchCommandTests {
    /// The rows, in the table's order.
    static let rows = [
        "memory-get", "memory-create-vs-peer", "memory-create-vs-keygen-seal", "file-get-platform",
        "file-create-platform", "rp-verify-registration-packed-es256", "rp-verify-registration-tpm-es256",
        "rp-verify-registration-android-key-pixel", "rp-verify-vs-raw-prepared", "rp-verify-vs-py-webauthn",
        "rp-verify-vs-go-webauthn",
        "serve-get-k8", "e2e-login", "tenant-postgres-1", "ctap-socket-get-assertion", "bridge-get-chromium",
        "bridge-create-chromium",
    ]

    /// Every row is printed; the measured ones have as many runs as asked (two runs of the logins
    /// end to end in one process, each with a tenant of its own), each beside its baseline with a
    /// ratio and a verdict (the baseline is the run's own, though several rows' baselines share a
    /// name); a skipped group, a peer that cannot run and the PostgreSQL row without
    /// `--db` say why instead, and the other groups still run.
    @Test func printsEveryRowWithItsVerdict() async throws {
        let result = try await ChildProcess.run(
            ChildProcess.built("passkey-bench"),
            [
                "targets", "--seconds", "0.02", "--rounds", "1", "--file-create-runs", "2", "--e2e-runs", "2",
                "--users", "3", "--serve-seconds", "0.05", "--vectors", Vectors.root.path, "--python",
                "/nonexistent/python", "--skip", "verifiers", "bridge", "--json",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try JSONValue(json: Array(result.stdout.utf8)).arrayValue)
        #expect(rows.compactMap { $0["name"]?.stringValue } == Self.rows)
        for row in rows {
            let name = row["name"]?.stringValue ?? ""
            let verdict = row["verdict"]?.stringValue
            switch name {
            case "rp-verify-vs-py-webauthn", "rp-verify-vs-go-webauthn", "bridge-get-chromium",
                "bridge-create-chromium":
                #expect(verdict == "NOT MEASURED")
                #expect(row["notMeasured"]?.stringValue?.hasPrefix("skipped (--skip ") == true, "\(name)")
            case "memory-create-vs-peer":
                #expect(verdict == "NOT MEASURED")
                #expect(row["notMeasured"]?.stringValue?.contains("/nonexistent/python") == true)
            case "tenant-postgres-1":
                #expect(verdict == "NOT MEASURED")
                #expect(row["notMeasured"]?.stringValue?.contains("no --db") == true)
            default:
                #expect(verdict == "PASS" || verdict == "MISS", "\(name): \(row)")
                let runs = try #require(row["runs"]?.arrayValue)
                #expect(runs.count == (["file-create-platform", "e2e-login"].contains(name) ? 2 : 1), "\(name)")
                let baselines = try #require(row["baselines"]?.arrayValue)
                #expect(baselines.count == runs.count, "\(name)")
                for (run, baseline) in zip(runs, baselines) {
                    let ratio = run["ratio"]?.numberValue ?? 0
                    #expect(ratio > 0, "\(name)")
                    #expect(run["target"]?.numberValue != nil, "\(name)")
                    // Each run's own baseline, though several rows' baselines share a name.
                    let value = (run["value"]?.numberValue ?? 0) / (baseline["value"]?.numberValue ?? 1)
                    #expect(abs(value / ratio - 1) < 1e-9, "\(name): \(run) beside \(baseline)")
                }
            }
        }
        let fileCreate = try #require(rows.first { $0["name"]?.stringValue == "file-create-platform" })
        #expect(fileCreate["planned"]?.numberValue == 2)
        #expect(fileCreate["required"]?.numberValue == 2)
    }
}
