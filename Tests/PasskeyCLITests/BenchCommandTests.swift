import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey-bench` as a user runs it: what it measures, not how fast (speed is the bench's
/// output, never a test's verdict).
@Suite struct BenchCommandTests {
    /// The built `passkey-bench`, beside `passkey`.
    static var executable: String { ChildProcess.built("passkey-bench") }

    /// Every attestation format this library verifies has its registration-verification figure,
    /// paired with raw ES256 verification of the same run; but `android-safetynet`, of which no
    /// vector exists (SafetyNet is retired; its tests sign their own responses).
    @Test func measuresRegistrationVerificationPerFormat() async throws {
        let result = try await ChildProcess.run(
            Self.executable,
            [
                "--seconds", "0.02", "--rounds", "1", "--store-size", "0", "--json", "--vectors",
                Vectors.root.path,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(try JSONValue(json: Array(result.stdout.utf8)).arrayValue)
        let measured = Set(figures.compactMap { $0["name"]?.stringValue })
        for format in RelyingParty.supportedAttestationFormats where format != .androidSafetyNet {
            let names = measured.filter { $0.hasPrefix("rp-verify-registration-\(format.rawValue)-") }
            #expect(!names.isEmpty, "no figure for \(format)")
        }
        for figure in figures where (figure["name"]?.stringValue)?.hasPrefix("rp-verify-registration-") == true {
            #expect(figure["baseline"]?.stringValue == "raw-es256-verify")
            #expect((figure["ratio"]?.numberValue ?? 0) > 0)
        }
        // Issue 30: every registration whose statement chains to an anchor has the target 0.4.
        let targeted = Set(
            figures.filter { $0["target"]?.numberValue == 0.4 }.compactMap { $0["name"]?.stringValue })
        let chained = [
            "packed-es256", "fido-u2f-es256", "apple-es256", "tpm-es256", "android-key-pixel", "tpm-rs1-dell",
        ]
        #expect(targeted == Set(chained.map { "rp-verify-registration-\($0)" }))
    }

    /// `--backend pkcs11` measures get and create with token keys, each paired with the token's own
    /// work in the same run.
    @Test func measuresTheTokenBackendAgainstRawTokenCalls() async throws {
        let environment = try await SoftHSMToken.prepare()
        let result = try await ChildProcess.run(
            Self.executable, ["--seconds", "0.05", "--rounds", "1", "--json"],
            environment: .inheriting(environment))
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(try JSONValue(json: Array(result.stdout.utf8)).arrayValue)
        let byName = Dictionary(
            uniqueKeysWithValues: figures.compactMap { f in f["name"]?.stringValue.map { ($0, f) } })
        #expect(Set(byName.keys) == ["raw-c-sign", "pkcs11-get", "raw-c-generate-key-pair", "pkcs11-create"])
        #expect(byName["pkcs11-get"]?["baseline"]?.stringValue == "raw-c-sign")
        #expect((byName["pkcs11-create"]?["ratio"]?.numberValue ?? 0) > 0)
    }

    /// `--only` measures the figures whose name starts so, with their baselines, and nothing else;
    /// every figure with a target says whether it meets it.
    @Test(arguments: [
        (
            "rp-verify-registration-tpm",
            ["raw-es256-verify", "rp-verify-registration-tpm-es256", "rp-verify-registration-tpm-rs1-dell"]
        ),
        ("memory-get", ["raw-es256-sign", "memory-get"]),
        ("memory-create-vs-keygen-seal", ["raw-es256-keygen-seal", "memory-create-vs-keygen-seal"]),
        ("file-create", ["raw-durable-new-file", "file-create-platform"]),
        ("session", ["raw-session-read", "session-read", "raw-session-replace", "session-store"]),
    ])
    func onlyMeasuresTheFiguresNamed(_ only: String, _ expected: [String]) async throws {
        let result = try await ChildProcess.run(
            Self.executable,
            [
                "--only", only, "--seconds", "0.02", "--rounds", "1", "--store-size", "0", "--json",
                "--vectors", Vectors.root.path,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(try JSONValue(json: Array(result.stdout.utf8)).arrayValue)
        #expect(Set(figures.compactMap { $0["name"]?.stringValue }) == Set(expected))
        for figure in figures where figure["target"] != nil {
            #expect(figure["meetsTarget"]?.boolValue != nil)
        }
    }
}

/// `passkey-bench growth`: one point per series and size of the store group, as JSON that
/// `Tools/plot_growth.py` reads, with the stores made once and reused.
@Suite struct GrowthBenchCommandTests {
    static let series: Set<String> = [
        "get-by-id", "get-discoverable", "create", "first-get", "first-get-by-id", "process-start", "resident",
        "disk-per-passkey", "make-per-passkey",
    ]

    @Test func measuresTheStoreAtEachSizeAndReusesItsStores() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.appending("cache")
        let out = directory.appending("growth.json")
        let arguments = [
            "growth", "--group", "store", "--sizes", "40", "90", "--seconds", "0.02", "--cache", cache, "--json",
        ]
        // Eleven new `passkey` processes per size: slow in a debug build beside other suites.
        let first = try await ChildProcess.run(
            BenchCommandTests.executable, arguments + ["--out", out], timeout: .seconds(600))
        #expect(first.status == 0, "\(first.stderr)")
        let points = try #require(try JSONValue(json: Array(first.stdout.utf8)).arrayValue)
        #expect(
            try JSONValue(json: Array(try Data(contentsOf: URL(fileURLWithPath: out))))
                == JSONValue(json: Array(first.stdout.utf8)))
        for size in [40, 90] {
            let atSize = points.filter { $0["size"]?.numberValue == Double(size) }
            #expect(Set(atSize.compactMap { $0["series"]?.stringValue }) == Self.series)
            for point in atSize {
                #expect(point["group"]?.stringValue == "store")
                #expect((point["value"]?.numberValue ?? 0) > 0, "\(point)")
            }
            // The store holds exactly its size: the measured creates were removed again.
            let names = try FileManager.default.contentsOfDirectory(atPath: "\(cache)/\(size)/store/credentials")
            #expect(names.filter { $0.hasSuffix(".json") }.count == size)
        }
        let again = try await ChildProcess.run(BenchCommandTests.executable, arguments, timeout: .seconds(600))
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("reusing the 90-passkey store"))
    }

    /// The tenant's group: users seeded through the bulk import, then native logins at each size;
    /// without `--db`, PostgreSQL's group says it was not measured.
    @Test func measuresTheTenantsLoginsAtEachSize() async throws {
        let result = try await ChildProcess.run(
            BenchCommandTests.executable,
            [
                "growth", "--group", "tenant-sqlite", "--group", "tenant-postgres", "--sizes", "20", "50", "--logins",
                "24", "--json",
            ], timeout: .seconds(600))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("tenant-postgres: not measured"))
        let points = try #require(try JSONValue(json: Array(result.stdout.utf8)).arrayValue)
        for size in [20, 50] {
            let atSize = points.filter { $0["size"]?.numberValue == Double(size) }
            #expect(
                Set(atSize.compactMap { $0["series"]?.stringValue })
                    == ["login-p50", "login-p99", "logins-per-second", "seed-per-user"])
            for point in atSize {
                #expect(point["group"]?.stringValue == "tenant-sqlite")
                #expect((point["value"]?.numberValue ?? 0) > 0, "\(point)")
            }
        }
    }

    /// `passkey-bench memory`: the resident size of `passkey serve` holding authenticators and of
    /// `passkey tenant serve` under a login load, from the children's own `/proc` status.
    @Test func memoryMeasuresTheServersItStarts() async throws {
        let result = try await ChildProcess.run(
            BenchCommandTests.executable,
            ["memory", "--authenticators", "20", "--users", "30", "--logins", "24", "--json"], timeout: .seconds(600))
        #expect(result.status == 0, "\(result.stderr)")
        let output = try JSONValue(json: Array(result.stdout.utf8))
        let figures = try #require(output.arrayValue ?? output["figures"]?.arrayValue, "\(output)")
        #expect(!figures.isEmpty)
        for figure in figures {
            #expect((figure["value"]?.numberValue ?? 0) > 0, "\(figure)")
        }
    }
}
