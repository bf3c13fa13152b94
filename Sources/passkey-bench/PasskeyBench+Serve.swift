import ArgumentParser
import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyControl
import WebAuthn

extension PasskeyBench {
    /// `passkey-bench serve`: ceremonies per second through the control API's HTTP routes, as a
    /// ratio to the same ceremonies called on the control service in process.
    struct ServeBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Ceremonies per second through passkey serve's HTTP API with K clients, against in process.",
            discussion: """
                K concurrent clients each sign (get) or make (create) over HTTP on loopback with libcurl, against \
                a control server in this process; the baseline is K concurrent tasks calling the same control \
                service directly. Beside them, get against the empty authenticated route's round trip (Set User \
                Verified) with the same client (serve-get-kK, target 0.7). Measured alternately, median of --rounds.
                """)

        @Option(help: "Seconds per measurement.")
        var seconds = 2.0

        @Option(help: "Alternating rounds; the median is reported.")
        var rounds = 3

        @Option(
            name: .customLong("clients"), parsing: .upToNextOption, help: "Concurrent clients (K), one figure each.")
        var clients: [Int] = [1, 8]

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            guard seconds > 0, rounds > 0, !clients.isEmpty, clients.allSatisfy({ $0 > 0 }) else {
                throw ValidationError("--seconds, --rounds and --clients are positive.")
            }
        }

        func run() async throws {
            let (figures, targets) = try await Self.withRig { rig in
                var figures: [Figure] = []
                var targets: [BenchFigure] = []
                for clients in clients {
                    BenchOutput.progress("serve get and the empty route K=\(clients)")
                    let pair = try await rig.targetFigures(seconds: seconds, rounds: rounds, clients: clients)
                    targets += pair
                    for operation in ["get", "create"] {
                        BenchOutput.progress("serve \(operation) K=\(clients)")
                        figures.append(
                            try await rig.againstInProcess(
                                operation, seconds: seconds, rounds: rounds, clients: clients,
                                roundTripsPerSecond: pair[0].value))
                    }
                }
                return (figures, targets)
            }
            try BenchOutput.write(
                Output(ceremonies: figures, figures: targets), json: json,
                lines: figures.map(\.line) + targets.map(\.line))
        }

        /// A get over HTTP against the empty authenticated route's round trip on the same server
        /// with the same client, measured alternately: `serve-empty-route-kK`, then `serve-get-kK`
        /// (target 0.7, issue 30).
        ///
        /// The empty route is Set User Verified (WebAuthn L3 §11.6), the cheapest authenticated
        /// command a user has: a POST with a small JSON body, one call to the service, `{"value":null}`
        /// back. It pays everything a ceremony's request pays (bearer check, path, body, answer)
        /// but the ceremony.
        static func targetFigures(seconds: Double, rounds: Int, clients: Int) async throws -> [BenchFigure] {
            try await withRig { rig in try await rig.targetFigures(seconds: seconds, rounds: rounds, clients: clients) }
        }

        /// Serves a control service on loopback with two authenticators, one holding a passkey
        /// for get, one for create (so get does not choose among the credentials create adds),
        /// while `body` runs.
        static func withRig<Value: Sendable>(_ body: @Sendable (Rig) async throws -> Value) async throws -> Value {
            let service = ControlService()
            let token = ControlToken.random()
            return try await ControlServer(service: service, token: token).serving { endpoint in
                let session = await service.newSession()
                var authenticators: [String: String] = [:]
                for operation in ["get", "create"] {
                    authenticators[operation] = try await service.addAuthenticator(
                        session: session,
                        try VirtualAuthenticatorConfiguration(parameters: ["softpasskey:profile": .string("platform")]))
                }
                let origin = try WebOrigin("https://example.com")
                _ = try await service.create(
                    session: session, authenticator: authenticators["get"]!,
                    options: try WebAuthnJSON.decode(
                        PublicKeyCredentialCreationOptionsJSON.self, from: creationOptions()),
                    origin: origin)
                return try await body(
                    Rig(
                        service: service, token: token.value, endpoint: endpoint, session: session,
                        authenticators: authenticators, origin: origin))
            }
        }

        /// A served control service ready for ceremonies (``withRig(_:)``).
        struct Rig: Sendable {
            let service: ControlService
            let token: String
            let endpoint: ControlEndpoint
            let session: String
            let authenticators: [String: String]
            let origin: WebOrigin

            /// A libcurl client of `operation`'s authenticator, keeping `clients` connections.
            func client(_ operation: String, clients: Int) -> HTTPCeremonies {
                HTTPCeremonies(
                    transport: CurlTransport(configuration: .init(maxIdleHandles: clients)), token: token,
                    path: endpoint.url + "/session/\(session)/webauthn/authenticator/\(authenticators[operation]!)")
            }

            /// ``ServeBench/targetFigures(seconds:rounds:clients:)`` on this rig.
            func targetFigures(seconds: Double, rounds: Int, clients: Int) async throws -> [BenchFigure] {
                let http = client("get", clients: clients)
                return try await BenchFigure.pairedRates(
                    "serve-get-k\(clients)", "get over passkey serve, K=\(clients)",
                    baseline: "serve-empty-route-k\(clients)",
                    baselineLabel: "empty route (Set User Verified), K=\(clients)", target: 0.85, rounds: rounds,
                    {
                        try await concurrentRate(clients: clients, seconds: seconds) {
                            try await http.run("get", origin: "https://example.com")
                        }
                    },
                    against: {
                        try await concurrentRate(clients: clients, seconds: seconds) {
                            try await http.run("uv", origin: "")
                        }
                    })
            }

            /// `operation` over HTTP against the same ceremony called on the service in process.
            func againstInProcess(
                _ operation: String, seconds: Double, rounds: Int, clients: Int, roundTripsPerSecond: Double
            ) async throws -> Figure {
                let http = client(operation, clients: clients)
                let (service, session, origin) = (service, session, origin)
                let authenticator = authenticators[operation]!
                let (overHTTP, inProcess) = try await Throughput.pairedRates(
                    rounds: rounds,
                    {
                        try await concurrentRate(clients: clients, seconds: seconds) {
                            try await http.run(operation, origin: "https://example.com")
                        }
                    },
                    baseline: {
                        try await concurrentRate(clients: clients, seconds: seconds) {
                            if operation == "get" {
                                let options = try WebAuthnJSON.decode(
                                    PublicKeyCredentialRequestOptionsJSON.self, from: requestOptions())
                                _ = try await service.get(
                                    session: session, authenticator: authenticator,
                                    options: WebAuthnJSON.encode(options), origin: origin)
                            } else {
                                let options = try WebAuthnJSON.decode(
                                    PublicKeyCredentialCreationOptionsJSON.self, from: creationOptions())
                                _ = try await service.create(
                                    session: session, authenticator: authenticator, options: options, origin: origin)
                            }
                        }
                    })
                return Figure(
                    operation: operation, clients: clients, overHTTPPerSecond: overHTTP, inProcessPerSecond: inProcess,
                    ratio: overHTTP / inProcess, roundTripsPerSecond: roundTripsPerSecond)
            }
        }

        /// What `passkey-bench serve --json` prints: the ceremonies against in process, and the
        /// issue's figures against the empty route.
        struct Output: Encodable {
            let ceremonies: [Figure]
            let figures: [BenchFigure]
        }

        /// Operations per second of `clients` tasks each running `body` for `seconds`.
        static func concurrentRate(clients: Int, seconds: Double, _ body: @escaping @Sendable () async throws -> Void)
            async throws -> Double
        {
            let clock = ContinuousClock()
            for _ in 0..<2 { try await body() }
            let start = clock.now
            let end = start + .milliseconds(Int(seconds * 1000))
            let count = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<clients {
                    group.addTask {
                        var done = 0
                        while clock.now < end {
                            try await body()
                            done += 1
                        }
                        return done
                    }
                }
                return try await group.reduce(0, +)
            }
            return Double(count) / (clock.now - start).seconds
        }

        static func creationOptions() -> [UInt8] {
            let user = Base64URL.encode(SecureRandom.bytes(16))
            return Array(
                """
                {"rp":{"id":"example.com","name":"Bench"},"user":{"id":"\(user)","name":"\(user)","displayName":"B"},\
                "challenge":"\(Base64URL.encode(SecureRandom.bytes(32)))","pubKeyCredParams":[{"type":"public-key","alg":-7}]}
                """.utf8)
        }

        static func requestOptions() -> [UInt8] {
            Array(#"{"rpId":"example.com","challenge":"\#(Base64URL.encode(SecureRandom.bytes(32)))"}"#.utf8)
        }

        /// A client of the ceremony routes.
        struct HTTPCeremonies: Sendable {
            let transport: CurlTransport
            let token: String
            let path: String

            func run(_ operation: String, origin: String) async throws {
                let body: [UInt8]
                switch operation {
                case "uv": body = Array(#"{"isUserVerified":true}"#.utf8)
                case "get":
                    body = Array(#"{"origin":"\#(origin)","options":"#.utf8) + requestOptions() + [UInt8(ascii: "}")]
                default:
                    body = Array(#"{"origin":"\#(origin)","options":"#.utf8) + creationOptions() + [UInt8(ascii: "}")]
                }
                let response = try await transport.send(
                    HTTPRequest(
                        method: .post, url: path + "/" + operation,
                        headers: [
                            (name: "Authorization", value: "Bearer \(token)"),
                            (name: "Content-Type", value: "application/json"),
                        ], body: body))
                guard response.status == 200 else {
                    throw BenchError("serve \(operation) answered \(response.status)")
                }
            }
        }

        /// One figure of `passkey-bench serve`.
        struct Figure: Encodable {
            let operation: String
            let clients: Int
            let overHTTPPerSecond: Double
            let inProcessPerSecond: Double
            let ratio: Double
            /// Empty-route requests per second with the same K: what HTTP alone allows.
            let roundTripsPerSecond: Double

            var line: String {
                let label = "serve-\(operation) K=\(clients)".padding(toLength: 20, withPad: " ", startingAt: 0)
                return label
                    + String(
                        format: "%9.1f/s over HTTP  %9.1f/s in process  ratio %.2f  (HTTP round trips %.1f/s)",
                        overHTTPPerSecond, inProcessPerSecond, ratio, roundTripsPerSecond)
            }
        }
    }
}
