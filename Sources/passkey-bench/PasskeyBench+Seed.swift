import ArgumentParser
import Auth0Passkeys
import BlockingIO
import Foundation
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant

extension PasskeyBench {
    /// `passkey-bench seed`: users seeded through the Management API per second, beside signups
    /// per second in the same run.
    struct SeedBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "seed",
            abstract: "Users seeded through the Management API per second, beside signups per second.",
            discussion: """
                Serves a local tenant on a loopback port (database in a scratch directory, on /dev/shm when there \
                is one). Then N virtual users, K at a time, sign up (`passkey signup`'s flow: signup challenge, \
                passkey, webauthn grant, session kept), and N others are seeded (`passkey seed`'s flow: user \
                looked up by email and created, passkey made on the device, attached through \
                /api/v2/users/{id}/authentication-methods), each with an authenticator file store of its own; \
                the Management API token is taken once, as `passkey seed --count N` does. Prints both rates and \
                their ratio.
                """)

        @Option(help: "Virtual users per phase (N).")
        var users = 1000

        @Option(help: "Users in flight at once (K).")
        var concurrency = 4

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            guard users > 0, concurrency > 0 else { throw ValidationError("--users and --concurrency are positive") }
        }

        func run() async throws {
            let scratch = try ScratchDirectory("passkey-bench-seed", memory: true)
            defer { scratch.remove() }
            let signing = try await SigningCeiling()
            let tenant = try await PasskeyTenant(
                configuration: signing.configuration, database: scratch.path + "/tenant.sqlite")
            let result = try await tenant.serving { endpoint in
                let connection = try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL)
                let signingUp = try await virtualUsers("signup", connection, scratch)
                let seeding = try await virtualUsers("seed", connection, scratch)
                let signups = try await UserPhase.run(signingUp, concurrency: concurrency) { index, user in
                    try await user.signUp(email: "signup\(index)@example.com")
                }
                let management = try await connection.managementAPI(
                    clientID: tenant.managementClientID, clientSecret: ClientSecret(tenant.managementClientSecret.text))
                let rpID = tenant.configuration.relyingPartyID
                let seeds = try await UserPhase.run(seeding, concurrency: concurrency) { index, user in
                    try await user.seed(email: "seed\(index)@example.com", rpID: rpID, using: management)
                }
                return Result(users: users, concurrency: concurrency, signups: signups, seeds: seeds)
            }
            try BenchOutput.write(result, json: json, lines: [result.text])
        }

        /// `users` virtual users of `connection`, each with a file store of its own.
        private func virtualUsers(_ name: String, _ connection: Tenant, _ scratch: ScratchDirectory) async throws
            -> [VirtualUser]
        {
            var virtualUsers: [VirtualUser] = []
            for index in 0..<users {
                let store = try await FileCredentialStore(directory: scratch.path + "/\(name)\(index)")
                virtualUsers.append(VirtualUser(tenant: connection, device: VirtualDevice(store: store)))
            }
            return virtualUsers
        }

        /// What `passkey-bench seed` prints.
        struct Result: Encodable {
            let users: Int
            let concurrency: Int
            let signups: UserPhase
            let seeds: UserPhase
            /// Seeds per second over signups per second.
            let ratio: Double

            enum CodingKeys: String, CodingKey {
                case users, concurrency, signups, seeds
                case ratio = "seed_to_signup_ratio"
            }

            init(users: Int, concurrency: Int, signups: UserPhase, seeds: UserPhase) {
                self.users = users
                self.concurrency = concurrency
                self.signups = signups
                self.seeds = seeds
                self.ratio = seeds.perSecond / signups.perSecond
            }

            var text: String {
                """
                users \(users) per phase, concurrency \(concurrency)
                signups/s                 \(signups.text)
                seeds/s (Management API)  \(seeds.text)  ratio \(String(format: "%.2f", ratio)) × signups
                """
            }
        }
    }
}
