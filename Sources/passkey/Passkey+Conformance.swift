import ArgumentParser
import Auth0Passkeys
import Foundation
import PasskeyConformance
import WebAuthn

extension Passkey {
    /// `passkey conformance`: the FIDO2 server conformance suite, and the metadata service it
    /// needs.
    struct Conformance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a relying-party server against the FIDO2 server conformance suite.",
            discussion: "run drives a server through the FIDO transport binding (POST /attestation/options, "
                + "/attestation/result, /assertion/options, /assertion/result) or an endpoint map, with "
                + "registrations and assertions forged to break one rule each; list names the tests.",
            subcommands: [Run.self, List.self, Root.self])
    }
}

extension Passkey.Conformance {
    /// `passkey conformance run`.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the suite against a server; exits 1 when a test fails.",
            discussion: "A test passes when the server gives the verdict its rule demands (WebAuthn L3 §7.1, §7.2, "
                + "§8). Tests that need what the server was not told about (the runner's root, its metadata) "
                + "are skipped; so are algorithms the server does not offer.")

        @Option(help: "The server URL the binding's paths are appended to.")
        var server: String

        @Option(help: "The origin forged client data claim (default: the server URL's scheme, host and port).")
        var origin: String?

        @Option(name: .customLong("rp-id"), help: "The RP ID when the options name none (default: the origin's host).")
        var rpID: String?

        @Option(help: "An endpoint map (JSON) for a server whose routes are not the binding's.")
        var map: String?

        @Option(help: "Run only this group (OPT, REG, ATT, AUTH, MDS) or test ID (repeatable).")
        var only: [String] = []

        @Flag(help: "The server trusts the runner's root (passkey conformance root), so bad chains must be refused.")
        var trustsRoot = false

        @Flag(help: "The server reads the runner's metadata service (passkey conformance mds serve).")
        var metadata = false

        @Option(help: "The seed of the runner's PKI (the metadata service must use the same).")
        var seed = ConformancePKI.defaultSeed

        @Option(help: "Also write the report as JUnit XML to this file.")
        var junit: String?

        @Option(help: "Seconds to wait for each answer.")
        var timeout = 10

        @Option(help: "How many tests run at once.")
        var parallel = 4

        @OptionGroup var format: OutputOptions

        func validate() throws {
            guard server.hasPrefix("http://") || server.hasPrefix("https://") else {
                throw ValidationError("--server is an http or https URL")
            }
            guard timeout > 0, parallel > 0 else { throw ValidationError("--timeout and --parallel are positive") }
        }

        func run() async throws {
            let suite: ConformanceSuite
            let configuration: ConformanceConfiguration
            let endpoints: EndpointMap
            do {
                suite = try ConformanceSuite().only(only)
                configuration = try ConformanceConfiguration(
                    origin: origin ?? Self.origin(of: server), rpID: rpID, trustsRoot: trustsRoot,
                    usesMetadata: metadata)
                endpoints = try map.map { path throws(ConformanceError) in
                    try EndpointMap(json: try Self.read(path))
                } ?? .binding
            } catch {
                throw ValidationError(error.description)
            }
            let transport = CurlTransport(
                configuration: .init(timeout: .seconds(timeout), connectTimeout: .seconds(min(timeout, 5))))
            let target = HTTPConformanceTarget(
                server: server, map: endpoints, variables: ProcessInfo.processInfo.environment, transport: transport)
            let report = await suite.run(
                against: target, configuration: configuration, pki: try ConformancePKI(seed: seed), name: server,
                parallel: parallel)
            if let junit {
                try Data(report.junitXML.utf8).write(to: URL(fileURLWithPath: junit))
            }
            if format.json { printJSON(report) } else { print(report.summary) }
            if !report.succeeded { throw ExitCode(1) }
        }

        /// The origin of a URL: its scheme, host and port.
        static func origin(of url: String) -> String {
            guard let scheme = url.range(of: "://") else { return url }
            let rest = url[scheme.upperBound...]
            return String(url[..<scheme.upperBound]) + String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        }

        static func read(_ path: String) throws(ConformanceError) -> [UInt8] {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConformanceError(.badMap, "cannot read \(path)")
            }
            return Array(data)
        }
    }

    /// `passkey conformance root`.
    struct Root: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the root CA of the runner's attestations in PEM, for a server to trust (--trusts-root).")

        @Option(help: "The seed of the runner's PKI.")
        var seed = ConformancePKI.defaultSeed

        func run() async throws {
            print(try ConformancePKI(seed: seed).rootPEM, terminator: "")
        }
    }

    /// `passkey conformance list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the suite's tests: ID, verdict, rule, title.")

        @Option(help: "List only this group or test ID (repeatable).")
        var only: [String] = []

        @OptionGroup var format: OutputOptions

        struct Entry: Encodable {
            let id, group, expected, rule, title: String
        }

        func run() async throws {
            let suite: ConformanceSuite
            do { suite = try ConformanceSuite().only(only) } catch { throw ValidationError(error.description) }
            let entries = suite.tests.map {
                Entry(id: $0.id, group: $0.group.rawValue, expected: $0.expected.rawValue, rule: $0.rule, title: $0.title)
            }
            if format.json {
                printJSON(entries)
            } else {
                for entry in entries {
                    let id = entry.id.padding(toLength: 36, withPad: " ", startingAt: 0)
                    let verdict = entry.expected.padding(toLength: 9, withPad: " ", startingAt: 0)
                    print("\(id) \(verdict) \(entry.title) (\(entry.rule))")
                }
            }
        }
    }
}
