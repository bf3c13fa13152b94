import ArgumentParser
import Auth0Passkeys
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
            let scratch = try Scratch("passkey-bench-e2e", memory: true)
            defer { scratch.remove() }
            let signing = try await SigningCeiling()
            let tenant = try await PasskeyTenant(
                configuration: signing.configuration, database: scratch.path + "/tenant.sqlite")
            let result = try await tenant.serving { endpoint in
                let ceilingBefore = try await ceiling(signing)
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
                let signups = try await phase(virtualUsers) { index, user in
                    try await user.signUp(email: "user\(index)@example.com")
                }
                let logins = try await phase(virtualUsers) { _, user in try await user.logIn() }
                let ceilingAfter = try await ceiling(signing)
                let ceiling = (ceilingBefore + ceilingAfter) / 2
                return Result(
                    users: users, concurrency: concurrency, ceilingLoginsPerSecond: ceiling, signups: signups,
                    logins: logins, loginRatio: logins.perSecond / ceiling)
            }
            if json {
                try BenchOutput.json(result)
            } else {
                print(result.text)
            }
        }

        /// The tenant's logins-per-second ceiling: RS256 signatures per second ÷ tokens per login.
        private func ceiling(_ signing: SigningCeiling) async throws -> Double {
            try await Throughput.rate(seconds: seconds) { try await signing.signSampleToken() }
                / Double(SigningCeiling.tokensSignedPerLogin)
        }

        /// Runs `body` once per user, `concurrency` at a time; the rate and latencies.
        private func phase(
            _ users: [VirtualUser], _ body: @escaping @Sendable (Int, VirtualUser) async throws -> some Sendable
        ) async throws -> Phase {
            try await UserPhase.run(users, concurrency: concurrency, body)
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

            enum CodingKeys: String, CodingKey {
                case users, concurrency, signups, logins
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
