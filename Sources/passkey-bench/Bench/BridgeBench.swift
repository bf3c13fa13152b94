import ArgumentParser
import BlockingIO
import Foundation
import PasskeyControl
import Subprocess
import SystemPackage
import WebAuthn

/// The page bridge against Chromium's own virtual authenticator (issues 30, 44): the same page's
/// `navigator.credentials.get` and `create` loop, measured by the page, answered by the bridge of
/// an authenticator of a control server in this process over its socket, then with a `fetch` per
/// ceremony, and by CDP
/// `WebAuthn.addVirtualAuthenticator` (ctap2, internal, resident key, user verification),
/// alternately in one Chromium of the same run.
///
/// The page and its driver are `Tests/Browser/bridge_bench.py` and `Tests/Browser/bench/`, run by
/// the Python of the browser suite (`.venv`), which starts Debian's `/usr/bin/chromium` (no browser
/// download) and drives it over a raw DevTools protocol connection (Target, Page, Runtime and
/// WebAuthn only): Playwright would enable the Network domain, whose events every bridge fetch
/// would pay and Chromium's own authenticator would not.
struct BridgeBench {
    /// Seconds per measurement.
    let seconds: Double
    /// Alternating rounds per figure; the median is reported.
    let rounds: Int
    /// The Python with the `websockets` package (`make setup` makes `.venv`).
    let python: String
    /// The page driver.
    var script = "Tests/Browser/bridge_bench.py"

    /// Chromium's virtual authenticator then the bridge, for get and then for create.
    ///
    /// - Throws: ``BridgeBenchUnavailable`` without the Python, its `websockets` or Chromium;
    ///   ``BenchChildFailure`` when the page's loop fails.
    func figures(progress: (String) -> Void) async throws -> [BenchFigure] {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw BridgeBenchUnavailable(reason: "no Python at \(python) (make setup makes .venv with websockets)")
        }
        guard FileManager.default.fileExists(atPath: script) else {
            throw BridgeBenchUnavailable(reason: "no page driver at \(script) (run from the package's root)")
        }
        let scratch = try ScratchDirectory("passkey-bench-bridge", memory: true)
        defer { scratch.remove() }
        progress("bridge get and create in Chromium, against its virtual authenticator (\(rounds) rounds)")
        let service = ControlService()
        let (seconds, rounds, python, script) = (seconds, rounds, python, script)
        let rates = try await ControlServer(service: service, token: ControlToken.random()).serving { endpoint in
            let session = await service.newSession()
            let authenticator = try await service.addAuthenticator(
                session: session,
                try VirtualAuthenticatorConfiguration(parameters: [
                    "protocol": .string("ctap2"), "transport": .string("internal"), "hasResidentKey": .bool(true),
                    "hasUserVerification": .bool(true), "isUserVerified": .bool(true),
                ]))
            let socket = "ws://" + endpoint.url.dropFirst("http://".count) + "/bridge/socket"
            let bridge = try await service.bridgeScript(
                session: session, authenticator: authenticator, endpoint: endpoint.url + "/bridge", socket: socket)
            let fetch = try await service.bridgeScript(
                session: session, authenticator: authenticator, endpoint: endpoint.url + "/bridge")
            let (bridgePath, fetchPath) = (scratch.path + "/bridge.js", scratch.path + "/bridge-fetch.js")
            try Data(bridge.utf8).write(to: URL(fileURLWithPath: bridgePath))
            try Data(fetch.utf8).write(to: URL(fileURLWithPath: fetchPath))
            return try await Self.pageRates(
                python: python, script: script,
                arguments: [
                    "--bridge-script", bridgePath, "--fetch-script", fetchPath, "--seconds", String(seconds),
                    "--rounds", String(rounds),
                ])
        }
        var figures: [BenchFigure] = []
        for kind in ["get", "create"] {
            guard let measured = rates[kind], measured.bridge.count == rounds, measured.chrome.count == rounds,
                measured.fetch?.count == rounds, let fetch = measured.fetch
            else {
                throw BenchChildFailure(reason: "\(script) gave no \(kind) rates")
            }
            let baseline = "chrome-virtual-\(kind)"
            let baselineLabel = "\(kind) in Chromium, its virtual authenticator"
            // The goal for the socket (issue 44); fetch's figure is the one the socket replaced,
            // beside the same baseline, which is printed once.
            let sides: [(String, String, Double?, [Double])] = [
                ("bridge-\(kind)-chromium", "\(kind) in Chromium through the bridge's socket", 0.6, measured.bridge),
                ("bridge-\(kind)-chromium-fetch", "\(kind) in Chromium through the bridge, fetch", nil, fetch),
            ]
            for (index, (name, label, target, side)) in sides.enumerated() {
                var ours = side.makeIterator()
                var chrome = measured.chrome.makeIterator()
                let pair = try await BenchFigure.pairedRates(
                    name, label, baseline: baseline, baselineLabel: baselineLabel, target: target, rounds: rounds,
                    { ours.next() ?? 0 }, against: { chrome.next() ?? 0 })
                figures += index == 0 ? pair : Array(pair.dropFirst())
            }
        }
        return figures
    }

    /// The rates the page measured, by ceremony: each round's Chromium figure, then the bridge's
    /// over its socket, then with fetch.
    struct PageRates: Decodable {
        let chrome: [Double]
        let bridge: [Double]
        let fetch: [Double]?
    }

    /// Runs the page driver and reads its rates.
    private static func pageRates(python: String, script: String, arguments: [String]) async throws
        -> [String: PageRates]
    {
        let result = try await Subprocess.run(
            .path(FilePath(python)), arguments: Arguments([script] + arguments),
            output: .string(limit: 65536), error: .string(limit: 65536))
        let reason = result.standardError.split(separator: "\n").last.map(String.init) ?? "no output"
        if case .exited(2) = result.terminationStatus {
            throw BridgeBenchUnavailable(reason: reason)
        }
        guard result.terminationStatus.isSuccess,
            let rates = try? JSONDecoder().decode([String: PageRates].self, from: Data(result.standardOutput.utf8))
        else {
            throw BenchChildFailure(reason: "\(script): \(reason)")
        }
        return rates
    }
}

/// The bridge figures cannot be measured here: no Python with its `websockets`, or no Chromium.
struct BridgeBenchUnavailable: Error, CustomStringConvertible {
    let reason: String

    var description: String { "the bridge figures need Chromium and the browser suite's Python: \(reason)" }
}

extension PasskeyBench {
    /// `passkey-bench bridge`: ``BridgeBench``'s figures.
    struct BridgeCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bridge",
            abstract:
                "Ceremonies/s in Chromium through the page bridge (socket, fetch), against Chromium's own authenticator.",
            discussion: """
                One page on loopback runs navigator.credentials.get (then create) in a loop and measures its own \
                rate, in three contexts of Debian's Chromium driven over CDP (.venv): one with CDP \
                WebAuthn.addVirtualAuthenticator (ctap2, internal, resident key, user verification), one with the \
                page bridge of an authenticator of a control server in this process over its socket, one with the \
                same bridge making a fetch per ceremony; alternately, median of --rounds. Run from the package's \
                root.
                """)

        @Option(help: "Seconds per measurement.")
        var seconds = 2.0

        @Option(help: "Alternating rounds per figure; the median is reported.")
        var rounds = 3

        @Option(help: "The Python of the browser suite (make setup makes .venv).")
        var python = ".venv/bin/python"

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            guard seconds > 0, rounds > 0 else { throw ValidationError("--seconds and --rounds must be positive") }
        }

        func run() async throws {
            let figures = try await BridgeBench(seconds: seconds, rounds: rounds, python: python)
                .figures(progress: BenchOutput.progress)
            try BenchOutput.write(figures, json: json, lines: figures.map(\.line))
        }
    }
}
