import ArgumentParser
import BlockingIO
import Foundation
import PasskeyConformance
import PasskeyTenant
import WebAuthn

extension PasskeyBench {
    /// `passkey-bench conformance`: conformance tests per second in process (the package's
    /// `RelyingParty` answering the transport binding) and over HTTP (the local tenant through the
    /// Auth0 native-passkeys endpoint map, libcurl on loopback), rounds alternating in one run.
    struct ConformanceBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "conformance",
            abstract: "Conformance tests per second against the in-process RelyingParty and over HTTP.",
            discussion: """
                Each round runs the whole suite (`passkey conformance run`: every test registers users of its \
                own) once against RelyingPartyConformanceTarget and once against a local tenant served on a \
                loopback port (database in a scratch directory), through the endpoint map given. Prints the \
                median tests per second of each and their ratio.
                """)

        @Option(help: "Rounds; the median is reported.")
        var rounds = 3

        @Option(help: "Tests in flight at once.")
        var parallel = 4

        @Option(help: "The endpoint map of the local tenant.")
        var map = "Examples/conformance/auth0-native-passkeys.json"

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            guard rounds > 0, parallel > 0 else { throw ValidationError("--rounds and --parallel are positive") }
        }

        func run() async throws {
            let endpoints = try EndpointMap(json: Array(try Data(contentsOf: URL(fileURLWithPath: map))))
            let pki = try ConformancePKI()
            let suite = ConformanceSuite()
            let scratch = try ScratchDirectory("passkey-bench-conformance", memory: true)
            defer { scratch.remove() }
            // Every round sends the tenant dozens of refused ceremonies from one address by design.
            var configuration = TenantConfiguration()
            configuration.attemptLimits = AttemptLimits(perUser: .max, perAddress: .max)
            let tenant = try await PasskeyTenant(
                configuration: configuration, database: scratch.path + "/tenant.sqlite")
            let (inProcess, overHTTP) = try await tenant.serving { endpoint in
                var inProcess: [Double] = []
                var overHTTP: [Double] = []
                for _ in 0..<rounds {
                    let relyingParty = RelyingPartyConformanceTarget(rpID: "example.org", trusting: pki)
                    inProcess.append(
                        try await Self.testsPerSecond(suite) {
                            await suite.run(
                                against: relyingParty,
                                configuration: try ConformanceConfiguration(
                                    origin: "https://example.org", trustsRoot: true),
                                pki: pki,
                                parallel: parallel)
                        })
                    let http = HTTPConformanceTarget(
                        server: endpoint.baseURL, map: endpoints, variables: ["AUTH0_CLIENT_ID": tenant.clientID])
                    overHTTP.append(
                        try await Self.testsPerSecond(suite) {
                            await suite.run(
                                against: http, configuration: try ConformanceConfiguration(origin: "https://localhost"),
                                pki: pki, parallel: parallel)
                        })
                }
                return (inProcess, overHTTP)
            }
            let result = Result(
                tests: suite.tests.count, rounds: rounds, parallel: parallel, inProcess: Self.median(inProcess),
                overHTTP: Self.median(overHTTP))
            try BenchOutput.write(result, json: json, lines: [result.text])
        }

        /// Runs the suite once and answers tests run to their verdict per second (a skipped test
        /// costs nothing, and the two targets skip different ones); a failed test is a bench failure, for
        /// a figure of tests that did not run to their verdict measures nothing.
        static func testsPerSecond(_ suite: ConformanceSuite, _ run: () async throws -> ConformanceReport)
            async throws -> Double
        {
            let clock = ContinuousClock()
            let start = clock.now
            let report = try await run()
            let elapsed = clock.now - start
            guard report.succeeded else {
                FileHandle.standardError.write(Data("a conformance test failed:\n\(report.summary)\n".utf8))
                throw ExitCode(1)
            }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return Double(report.passed) / seconds
        }

        static func median(_ values: [Double]) -> Double {
            values.sorted()[values.count / 2]
        }

        /// What `passkey-bench conformance` prints: tests run to their verdict per second.
        struct Result: Encodable {
            let tests: Int
            let rounds: Int
            let parallel: Int
            /// Tests per second against the in-process relying party.
            let inProcess: Double
            /// Tests per second over HTTP against the local tenant.
            let overHTTP: Double

            enum CodingKeys: String, CodingKey {
                case tests, rounds, parallel
                case inProcess = "in_process_tests_per_second"
                case overHTTP = "http_tests_per_second"
            }

            var text: String {
                """
                \(tests) tests, \(rounds) rounds, \(parallel) at a time
                in process (RelyingParty)       \(String(format: "%.0f", inProcess)) tests/s
                over HTTP (local tenant, curl)  \(String(format: "%.0f", overHTTP)) tests/s  \
                ratio \(String(format: "%.2f", overHTTP / inProcess)) × in process
                """
            }
        }
    }
}
