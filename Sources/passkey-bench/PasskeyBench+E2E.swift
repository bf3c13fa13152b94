import ArgumentParser
import Auth0Passkeys
import BlockingIO
import Foundation
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant

extension PasskeyBench {
    /// `passkey-bench e2e`: virtual users (PasskeyKit) sign up, then log in, as the CLI's commands do.
    struct EndToEndBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "e2e",
            abstract: "Signups and logins per second end to end, against the tenant's RS256 ceiling.",
            discussion: """
                Serves a local tenant on a loopback port (database in a scratch directory, on /dev/shm when there \
                is one), then N virtual users, K at a time, each with an authenticator store and a session \
                directory of its own, sign up and then log in through the same virtual-user flows as `passkey \
                signup` and `passkey login`: libcurl, the software authenticator over its file store, the \
                CredentialsManager over its files. The tenant's ceiling (RS256 signatures per second ÷ 2 tokens per login) is \
                measured in the same run, before and after; the ratio uses their mean.
                """)

        @Option(help: "Virtual users (N).")
        var users = 200

        @Option(help: "Users in flight at once (K).")
        var concurrency = 4

        @Option(help: "Seconds each ceiling measurement runs.")
        var seconds = 2.0

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            guard users > 0, concurrency > 0, seconds > 0 else {
                throw ValidationError("--users, --concurrency and --seconds are positive")
            }
        }

        func run() async throws {
            let result = try await Self.measure(users: users, concurrency: concurrency, seconds: seconds)
            try BenchOutput.write(result, json: json, lines: [result.text])
        }

        /// The issue's figures of one run: `e2e-ceiling` (the tenant's RS256 ceiling, logins/s),
        /// then `e2e-login` (logins/s, its ratio to the ceiling, target 0.6).
        static func figures(users: Int, concurrency: Int, seconds: Double) async throws -> [BenchFigure] {
            try await measure(users: users, concurrency: concurrency, seconds: seconds).figures
        }

        /// Serves a tenant, signs `users` virtual users up and logs them in, `concurrency` at a
        /// time, between two measurements of the ceiling.
        static func measure(users: Int, concurrency: Int, seconds: Double) async throws -> Result {
            let scratch = try ScratchDirectory("passkey-bench-e2e", memory: true)
            defer { scratch.remove() }
            let signing = try await SigningCeiling()
            let tenant = try await PasskeyTenant(
                configuration: signing.configuration, database: scratch.path + "/tenant.sqlite")
            return try await tenant.serving { endpoint in
                // The tenant's logins-per-second ceiling: RS256 signatures per second ÷ tokens per login.
                let ceiling = { @Sendable () async throws -> Double in
                    try await Throughput.rate(seconds: seconds) { try await signing.signSampleToken() }
                        / Double(SigningCeiling.tokensSignedPerLogin)
                }
                let ceilingBefore = try await ceiling()
                let connection = try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL)
                var virtualUsers: [VirtualUser] = []
                for index in 0..<users {
                    let home = scratch.path + "/user\(index)"
                    virtualUsers.append(
                        VirtualUser(
                            tenant: connection,
                            device: VirtualDevice(store: try await FileCredentialStore(directory: home)),
                            session: FileCredentialsStorage(
                                directory: home + "/session", sealing: .keyFile(home + "/session.key"))))
                }
                let signups = try await UserPhase.run(virtualUsers, concurrency: concurrency) { index, user in
                    try await user.signUp(email: "user\(index)@example.com")
                }
                let logins = try await UserPhase.run(virtualUsers, concurrency: concurrency) { _, user in
                    try await user.logIn()
                }
                let ceilingAfter = try await ceiling()
                let mean = (ceilingBefore + ceilingAfter) / 2
                return Result(
                    users: users, concurrency: concurrency, ceilingLoginsPerSecond: mean, signups: signups,
                    logins: logins, loginRatio: logins.perSecond / mean,
                    figures: [
                        BenchFigure(
                            name: "e2e-ceiling", label: "tenant RS256 ceiling (signatures/s ÷ 2)", value: mean,
                            unit: "logins/s"),
                        BenchFigure(
                            name: "e2e-login", label: "e2e logins, \(users) users, K=\(concurrency)",
                            value: logins.perSecond, unit: "logins/s", baseline: "e2e-ceiling",
                            ratio: mean > 0 ? logins.perSecond / mean : nil, target: 0.7),
                    ])
            }
        }

        typealias Phase = UserPhase

        /// What `passkey-bench e2e` prints.
        struct Result: Encodable {
            let users: Int
            let concurrency: Int
            let ceilingLoginsPerSecond: Double
            let signups: Phase
            let logins: Phase
            let loginRatio: Double

            /// ``EndToEndBench/figures(users:concurrency:seconds:)``: `e2e-ceiling`, then `e2e-login`.
            let figures: [BenchFigure]

            enum CodingKeys: String, CodingKey {
                case users, concurrency, signups, logins, figures
                case ceilingLoginsPerSecond = "ceiling_logins_per_second"
                case loginRatio = "login_ratio_to_ceiling"
            }

            var text: String {
                func f(_ value: Double) -> String { String(format: "%.1f", value) }
                func ms(_ phase: Phase) -> String { "p50 \(f(phase.p50)) ms  p99 \(f(phase.p99)) ms" }
                return """
                    users \(users), concurrency \(concurrency)
                    tenant ceiling logins/s   \(f(ceilingLoginsPerSecond))  (RS256 signatures/s ÷ \(SigningCeiling.tokensSignedPerLogin))
                    signups/s                 \(f(signups.perSecond))  \(ms(signups))
                    logins/s                  \(f(logins.perSecond))  \(ms(logins))  ratio \(String(format: "%.2f", loginRatio)) (target 0.6)
                    """
            }
        }
    }
}
