import ArgumentParser
import BlockingIO
import Foundation
import PasskeyAuthenticator

extension PasskeyBench {
    /// `passkey-bench [authenticator]`: throughput and scale of the authenticator and its store.
    struct AuthenticatorBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "authenticator",
            abstract: "Measure ceremonies per second against raw OpenSSL and raw durable writes, and a large store.",
            discussion: "Each figure is measured alternately with its baseline (median of --rounds), so the ratio "
                + "holds on a busy machine where absolute rates drift. Build with -c release for real figures.")

        @Option(help: "Seconds per measurement.")
        var seconds: Double = 0.5

        @Option(help: "Alternating rounds per figure; the median is reported.")
        var rounds: Int = 3

        @Option(
            name: .customLong("store-size"),
            help: "Credentials in the large stores, the file store and the in-memory one (0 skips them).")
        var storeSize: Int = 100_000

        @Option(
            name: .customLong("large-store"),
            help: "Where to keep the large store between runs (made once, in DIR/store; as growth's cache/SIZE).")
        var largeStore: String?

        @Option(help: "The test vectors folder whose W3C set is verified per attestation format.")
        var vectors = "Vectors"

        @Flag(
            name: .customLong("compare-peer"),
            help: "Measure soft-webauthn (Python) beside the in-memory get and create, in the same run.")
        var comparePeer = false

        @Flag(
            name: .customLong("compare-verifiers"),
            help: "Verify one assertion with py_webauthn (Python) and duo-labs/webauthn (Go) beside ours, in one run.")
        var compareVerifiers = false

        @Option(
            name: .customLong("verifier-peers"),
            help: "The folder of verifier_peer_bench.py and go_webauthn_bench/, for --compare-verifiers.")
        var verifierPeers = "Tests/Interop"

        @Option(help: "The Python with soft-webauthn and py_webauthn, for --compare-peer and --compare-verifiers.")
        var python = ".venv/bin/python"

        @Option(name: .customLong("peer-script"), help: "The peer's measuring script, for --compare-peer.")
        var peerScript = "Tests/Interop/peer_bench.py"

        @Option(help: "Measure only the figures whose name starts with this (memory-get, rp-verify, …).")
        var only: String?

        @Flag(help: "Print JSON.")
        var json = false

        @OptionGroup var keys: BackendOptions

        func validate() throws {
            guard seconds > 0, rounds > 0, storeSize >= 0 else {
                throw ValidationError("--seconds and --rounds must be positive, --store-size not negative")
            }
        }

        func run() async throws {
            let directory = try ScratchDirectory("passkey-bench")
            defer { directory.remove() }
            let scratch = directory.path
            let progress: (String) -> Void = BenchOutput.progress
            let wants: (String) -> Bool = { name in only.map { name.hasPrefix($0) } ?? true }
            let custody = try await keys.custody(ProcessInfo.processInfo.environment)
            if let custody {
                // --backend pkcs11: the token's figures alone.
                let figures = try await PKCS11Bench(
                    custody: custody, seconds: seconds, rounds: rounds, scratch: scratch
                )
                .figures(progress: progress)
                try BenchOutput.write(figures, json: json, lines: figures.map(\.line))
                return
            }
            // A group runs when any of its figures may be wanted: its names all start with `group`.
            let wantsGroup: (String) -> Bool = { group in
                only.map { group.hasPrefix($0) || $0.hasPrefix(group) } ?? true
            }
            var figures = try await CeremonyBench(
                seconds: seconds, rounds: rounds, scratch: scratch, wants: wants,
                peer: comparePeer ? PeerBench(python: python, script: peerScript) : nil, flatStoreSize: storeSize
            ).figures(progress: progress)
            if wantsGroup("rp-verify-registration") {
                figures += try await AttestationBench(
                    vectors: URL(fileURLWithPath: vectors), seconds: seconds, rounds: rounds, wants: wants
                ).figures(progress: progress)
            }
            if compareVerifiers, wantsGroup("rp-verify-vs") {
                figures += try await VerifierPeerBench(
                    seconds: seconds, rounds: rounds, python: python, scratch: scratch, peers: verifierPeers,
                    wants: wants
                ).figures(progress: progress)
            }
            if wantsGroup("session") {
                figures += try await SessionBench(seconds: seconds, rounds: rounds, scratch: scratch)
                    .figures(progress: progress)
            }
            if storeSize > 0, wantsGroup("large-store") {
                let store = LargeStore(count: storeSize, root: largeStore ?? scratch + "/large")
                figures += try await LargeStoreBench(store: store).figures(progress: progress)
            }
            try BenchOutput.write(figures, json: json, lines: figures.map(\.line))
        }
    }
}
