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
                service directly. Measured alternately, median of --rounds.
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
            let service = ControlService()
            let token = ControlToken.random()
            let figures = try await ControlServer(service: service, token: token).serving { endpoint in
                let session = await service.newSession()
                // One authenticator signs (it holds one passkey), another makes them, so the get figure
                // does not choose among the credentials the create figure adds.
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
                        PublicKeyCredentialCreationOptionsJSON.self, from: Self.creationOptions()),
                    origin: origin)
                var figures: [Figure] = []
                for clients in clients {
                    // The transport's own ceiling: a trivial authenticated command (Set User Verified).
                    let floor = HTTPCeremonies(
                        transport: CurlTransport(configuration: .init(maxIdleHandles: clients)), token: token.value,
                        path: endpoint.url + "/session/\(session)/webauthn/authenticator/\(authenticators["get"]!)")
                    BenchOutput.progress("serve round trips K=\(clients)")
                    let roundTrips = try await Self.concurrentRate(clients: clients, seconds: seconds) {
                        try await floor.run("uv", origin: "")
                    }
                    for operation in ["get", "create"] {
                        BenchOutput.progress("serve \(operation) K=\(clients)")
                        let authenticator = authenticators[operation]!
                        let http = HTTPCeremonies(
                            transport: CurlTransport(configuration: .init(maxIdleHandles: clients)), token: token.value,
                            path: endpoint.url + "/session/\(session)/webauthn/authenticator/\(authenticator)")
                        let (overHTTP, inProcess) = try await Throughput.pairedRates(
                            rounds: rounds,
                            {
                                try await Self.concurrentRate(clients: clients, seconds: seconds) {
                                    try await http.run(operation, origin: "https://example.com")
                                }
                            },
                            baseline: {
                                try await Self.concurrentRate(clients: clients, seconds: seconds) {
                                    if operation == "get" {
                                        let options = try WebAuthnJSON.decode(
                                            PublicKeyCredentialRequestOptionsJSON.self, from: Self.requestOptions())
                                        _ = try await service.get(
                                            session: session, authenticator: authenticator, options: options,
                                            origin: origin)
                                    } else {
                                        let options = try WebAuthnJSON.decode(
                                            PublicKeyCredentialCreationOptionsJSON.self, from: Self.creationOptions())
                                        _ = try await service.create(
                                            session: session, authenticator: authenticator, options: options,
                                            origin: origin)
                                    }
                                }
                            })
                        figures.append(
                            Figure(
                                operation: operation, clients: clients, overHTTPPerSecond: overHTTP,
                                inProcessPerSecond: inProcess, ratio: overHTTP / inProcess,
                                roundTripsPerSecond: roundTrips,
                                target: clients == 8 && operation == "get" ? 0.5 : nil))
                    }
                }
                return figures
            }
            if json {
                try BenchOutput.json(figures)
            } else {
                for figure in figures { print(figure.line) }
            }
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
            /// Trivial authenticated requests per second with the same K: what HTTP alone allows.
            let roundTripsPerSecond: Double
            /// The least acceptable ratio (issue 14), where one is set.
            let target: Double?

            var line: String {
                let label = "serve-\(operation) K=\(clients)".padding(toLength: 20, withPad: " ", startingAt: 0)
                var text =
                    label
                    + String(
                        format: "%9.1f/s over HTTP  %9.1f/s in process  ratio %.2f", overHTTPPerSecond,
                        inProcessPerSecond, ratio)
                text += String(format: "  (HTTP round trips %.1f/s)", roundTripsPerSecond)
                if let target {
                    text += String(format: "  target ≥ %.2f", target) + (ratio >= target ? ": met" : ": MISSED")
                }
                return text
            }
        }
    }
}
