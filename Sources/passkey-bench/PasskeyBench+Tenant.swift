import ArgumentParser
import Foundation
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import WebAuthn

extension PasskeyBench {
    /// `passkey-bench tenant`: registrations and logins per second, in process and over HTTP.
    struct TenantBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tenant",
            abstract: "Registrations and logins verified per second by the local tenant.",
            discussion: """
                In process (challenge, response, tokens; no HTTP), then over HTTP on loopback with K concurrent
                clients. Prints the RS256 ceiling measured in the same run (signatures per second divided by the
                tokens a login signs) and each login rate's ratio to it; each HTTP figure is measured --rounds \
                times alternately with the ceiling, and the medians compared. The tenant's database is an \
                in-memory SQLite one. With --db postgres://…, the logins over HTTP are measured again with N tenant \
                instances on that database (one per --instances value), each serving on a loopback port of its \
                own in this process, the clients spread over them round robin.
                """
        )

        @Option(help: "Seconds each measurement runs.")
        var seconds = 3.0

        @Option(
            name: .customLong("clients"), parsing: .upToNextOption,
            help: "Concurrent HTTP clients (K), one measurement per value.")
        var clients: [Int] = [4, 16]

        @Option(help: "Rounds of each HTTP figure, alternating with the ceiling; their medians are compared.")
        var rounds = 3

        @Option(
            help: """
                A PostgreSQL database (postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME, or a Unix socket as \
                postgres://USER@/DBNAME?host=/socket/dir): also measure logins over HTTP with --instances tenants \
                on it. It gains a user per --instances value.
                """)
        var db: String?

        @Option(
            parsing: .upToNextOption,
            help: "Tenant instances on --db (N), one measurement per value and per --clients value.")
        var instances: [Int] = [1, 2, 4]

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            guard seconds > 0, !clients.isEmpty, clients.allSatisfy({ $0 > 0 }) else {
                throw ValidationError("--seconds and --clients are positive.")
            }
            guard rounds > 0, !instances.isEmpty, instances.allSatisfy({ $0 > 0 }) else {
                throw ValidationError("--rounds and --instances are positive.")
            }
            if let db, !PostgresURL.isPostgres(db) {
                throw ValidationError("--db is a postgres:// or postgresql:// URL.")
            }
        }

        func run() async throws {
            let signing = try await SigningCeiling()
            let tenant = try await PasskeyTenant(configuration: signing.configuration)
            let signs = try await rate(seconds) { try await signing.signSampleToken() }
            let ceiling = signs / Double(SigningCeiling.tokensSignedPerLogin)
            var index = 0
            // A fresh device each time, so the authenticator's store does not grow with the run.
            let registrations = try await rate(seconds) {
                index += 1
                let device = WebAuthnClient(authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore()))
                try await TenantCeremonies(tenant: tenant, device: device).signUp(
                    email: "bench\(index)@example.com")
            }
            let store = InMemoryCredentialStore()
            let ceremonies = TenantCeremonies(
                tenant: tenant, device: WebAuthnClient(authenticator: SoftwareAuthenticator(store: store)))
            try await ceremonies.signUp(email: "login@example.com")
            let logins = try await rate(seconds) { try await ceremonies.logIn() }
            let overHTTP = try await tenant.serving { [clients, seconds, rounds] endpoint in
                try await Self.pairedLogins(
                    clientID: tenant.clientID, endpoints: [endpoint], store: store, clients: clients, seconds: seconds,
                    rounds: rounds, signing: signing)
            }.map {
                HTTPLogins(
                    clients: $0.clients, loginsPerSecond: $0.loginsPerSecond, ceiling: $0.ceiling,
                    ratio: $0.loginsPerSecond / $0.ceiling, target: 0.7)
            }
            var overPostgres: [SharedLogins] = []
            if let db {
                for instances in instances {
                    for paired in try await sharedLogins(database: db, instances: instances, signing: signing) {
                        overPostgres.append(
                            SharedLogins(
                                instances: instances, clients: paired.clients, loginsPerSecond: paired.loginsPerSecond,
                                ceiling: paired.ceiling, ratio: paired.loginsPerSecond / paired.ceiling))
                    }
                }
            }
            let result = Result(
                rs256SignsPerSecond: signs, ceilingLoginsPerSecond: ceiling, registrationsPerSecond: registrations,
                loginsPerSecond: logins, ratioInProcess: logins / ceiling, overHTTP: overHTTP,
                overPostgres: overPostgres)
            try BenchOutput.write(result, json: json, lines: [result.text])
        }

        /// Logins per second over HTTP at `endpoints`, one figure per `clients` value, each measured
        /// `rounds` times alternately with the ceiling (RS256 signatures per second ÷ tokens per login),
        /// the median of each kept: the machine's speed drifts, so a figure is compared with the
        /// ceiling of its own minute.
        private static func pairedLogins(
            clientID: String, endpoints: [TenantEndpoint], store: InMemoryCredentialStore, clients: [Int],
            seconds: Double, rounds: Int, signing: SigningCeiling
        ) async throws -> [PairedLogins] {
            var figures: [PairedLogins] = []
            for clients in clients {
                let (perSecond, ceiling) = try await Throughput.pairedRates(
                    rounds: rounds,
                    {
                        try await TenantInstances.loginRate(
                            clientID: clientID, endpoints: endpoints, device: VirtualDevice(store: store),
                            clients: clients, seconds: seconds)
                    },
                    baseline: {
                        try await Throughput.rate(seconds: seconds) { try await signing.signSampleToken() }
                            / Double(SigningCeiling.tokensSignedPerLogin)
                    })
                figures.append(PairedLogins(clients: clients, loginsPerSecond: perSecond, ceiling: ceiling))
            }
            return figures
        }

        /// Logins per second with K clients, and the ceiling measured alternately with them.
        struct PairedLogins {
            let clients: Int
            let loginsPerSecond: Double
            let ceiling: Double
        }

        /// Runs `body` over and over for `seconds`, and returns how many times per second it ran.
        private func rate(_ seconds: Double, _ body: () async throws -> Void) async throws -> Double {
            let clock = ContinuousClock()
            let start = clock.now
            let end = start + .seconds(seconds)
            var count = 0
            while clock.now < end {
                try await body()
                count += 1
            }
            return Double(count) / (clock.now - start).seconds
        }

        /// Logins per second over HTTP with `instances` tenants on the PostgreSQL `database`, one
        /// measurement per `--clients` value: a user signs up at the first instance (in process), then
        /// logs in at all of them, so every login reads what another instance may have written.
        private func sharedLogins(database: String, instances: Int, signing: SigningCeiling)
            async throws -> [PairedLogins]
        {
            let running = try await TenantInstances.open(
                count: instances, database: database, configuration: signing.configuration)
            do {
                let store = InMemoryCredentialStore()
                let device = WebAuthnClient(authenticator: SoftwareAuthenticator(store: store))
                let email = "login-\(UUID().uuidString.lowercased())@example.com"
                try await TenantCeremonies(tenant: running.tenants[0], device: device).signUp(email: email)
                let clientID = running.tenants[0].clientID
                let rates = try await running.serving { [clients, seconds, rounds] endpoints in
                    try await Self.pairedLogins(
                        clientID: clientID, endpoints: endpoints, store: store, clients: clients, seconds: seconds,
                        rounds: rounds, signing: signing)
                }
                await running.close()
                return rates
            } catch {
                await running.close()
                throw error
            }
        }

        /// Logins over HTTP with K clients, against the ceiling.
        struct HTTPLogins: Encodable {
            let clients: Int
            let loginsPerSecond: Double
            /// The ceiling measured alternately with this figure (the median).
            let ceiling: Double
            let ratio: Double
            /// The least acceptable ratio (issue 13).
            let target: Double
        }

        /// Logins over HTTP with N instances on one PostgreSQL database and K clients, against the
        /// ceiling.
        struct SharedLogins: Encodable {
            let instances: Int
            let clients: Int
            let loginsPerSecond: Double
            /// The ceiling measured alternately with this figure (the median).
            let ceiling: Double
            let ratio: Double
        }

        /// What `passkey-bench tenant` prints.
        struct Result: Encodable {
            let rs256SignsPerSecond: Double
            let ceilingLoginsPerSecond: Double
            let registrationsPerSecond: Double
            let loginsPerSecond: Double
            let ratioInProcess: Double
            let overHTTP: [HTTPLogins]
            /// With `--db`: the same over PostgreSQL, per instance count and K.
            let overPostgres: [SharedLogins]

            var text: String {
                func f(_ value: Double) -> String { String(format: "%.1f", value) }
                var lines = [
                    "RS256 signatures/s        \(f(rs256SignsPerSecond))",
                    "ceiling logins/s          \(f(ceilingLoginsPerSecond))  (signatures/s ÷ "
                        + "\(SigningCeiling.tokensSignedPerLogin) tokens per login)",
                    "registrations/s (in proc) \(f(registrationsPerSecond))",
                    "logins/s (in process)     \(f(loginsPerSecond))  ratio \(String(format: "%.2f", ratioInProcess))",
                ]
                for http in overHTTP {
                    let label = "logins/s (HTTP, K=\(http.clients))".padding(toLength: 26, withPad: " ", startingAt: 0)
                    lines.append(
                        label + "\(f(http.loginsPerSecond))  ratio \(String(format: "%.2f", http.ratio))  target ≥ "
                            + String(format: "%.2f", http.target) + (http.ratio >= http.target ? ": met" : ": MISSED")
                            + " (ceiling \(f(http.ceiling)))")
                }
                for shared in overPostgres {
                    let sqlite = overHTTP.first { $0.clients == shared.clients }.map {
                        "  SQLite, 1 instance: \(f($0.loginsPerSecond)), ratio \(String(format: "%.2f", $0.ratio))"
                    }
                    let label = "logins/s (PostgreSQL, N=\(shared.instances), K=\(shared.clients))"
                    lines.append(
                        label.padding(toLength: 38, withPad: " ", startingAt: 0) + f(shared.loginsPerSecond)
                            + "  ratio " + String(format: "%.2f", shared.ratio) + " (ceiling \(f(shared.ceiling)))"
                            + (sqlite ?? ""))
                }
                return lines.joined(separator: "\n")
            }
        }
    }
}

/// The tenant's ceremonies driven in process: challenge, the device's response, tokens.
struct TenantCeremonies {
    let tenant: PasskeyTenant
    let device: WebAuthnClient
    static let origin = try! WebOrigin("https://localhost")  // A constant, valid origin.

    func signUp(email: String) async throws {
        let challenge = try await tenant.signupChallenge(
            SignupChallengeRequest(clientID: tenant.clientID, userProfile: UserProfile(email: email)))
        let registration = try await device.create(challenge.options, origin: Self.origin)
        _ = try await tenant.token(
            TokenRequest(
                grantType: TokenRequest.webAuthnGrant, clientID: tenant.clientID, authSession: challenge.authSession,
                authnResponse: PasskeyResponse(registration), scope: "openid profile email"))
    }

    func logIn() async throws {
        let challenge = try await tenant.loginChallenge(LoginChallengeRequest(clientID: tenant.clientID))
        let assertion = try await device.get(challenge.options, origin: Self.origin)
        _ = try await tenant.token(
            TokenRequest(
                grantType: TokenRequest.webAuthnGrant, clientID: tenant.clientID, authSession: challenge.authSession,
                authnResponse: PasskeyResponse(assertion), scope: "openid profile email"))
    }
}
