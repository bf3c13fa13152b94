import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey-bench seed` as a user runs it: both phases measured in one run, their ratio printed
/// (speed is the bench's output, never a test's verdict).
@Suite struct SeedBenchCommandTests {
    @Test func seedsBesideSignupsInOneRun() async throws {
        let result = try await ChildProcess.run(
            ChildProcess.built("passkey-bench"), ["seed", "--users", "3", "--concurrency", "2", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let figure = try JSONValue(json: Array(result.stdout.utf8))
        #expect(figure["users"] == .number(3) && figure["concurrency"] == .number(2))
        for phase in ["signups", "seeds"] {
            #expect((figure[phase]?["per_second"]?.numberValue ?? 0) > 0, "\(phase)")
            #expect((figure[phase]?["p99_ms"]?.numberValue ?? 0) >= (figure[phase]?["p50_ms"]?.numberValue ?? 0))
        }
        let ratio = try #require(figure["seed_to_signup_ratio"]?.numberValue)
        let seeds = try #require(figure["seeds"]?["per_second"]?.numberValue)
        let signups = try #require(figure["signups"]?["per_second"]?.numberValue)
        #expect(abs(ratio - seeds / signups) < 1e-9)
    }
}
