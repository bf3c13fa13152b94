import ArgumentParser
import Foundation
import PasskeyConformance
import WebAuthn

extension Passkey.Conformance {
    /// `passkey conformance mds`: the runner's FIDO metadata service.
    struct MDS: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mds",
            abstract: "Serve the runner's FIDO metadata (MDS3 BLOB) for a server under test.",
            subcommands: [Serve.self])
    }
}

extension Passkey.Conformance.MDS {
    /// `passkey conformance mds serve`.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the runner's metadata BLOB and its broken variants until SIGINT or SIGTERM.",
            discussion: """
                GET / is a FIDO MDS 3.0 BLOB (a JWT signed under the runner's root) listing the runner's \
                authenticator models and their statuses; /bad-signature, /expired and /wrong-chain are the same \
                BLOB broken, which a server must refuse; /root.pem is the root. Prints one line with the URL and \
                the root (JSON with --json) once it listens. Give the run the same --seed.
                """)

        @Option(help: "The address to listen on.")
        var host = "127.0.0.1"

        @Option(help: "The port to listen on; 0 picks a free one.")
        var port = 0

        @Option(help: "The seed of the runner's PKI (passkey conformance run must use the same).")
        var seed = ConformancePKI.defaultSeed

        @OptionGroup var format: OutputOptions

        func validate() throws {
            guard (0...65535).contains(port) else {
                throw ValidationError("--port must be between 0 and 65535.")
            }
        }

        func run() async throws {
            let server = try reportingFailures { try MetadataServer(pki: ConformancePKI(seed: seed)) }
            let root = server.metadata.pki.rootPEM
            try await serveReportingStart("mds serve", place: "\(host):\(port)", json: format.json) { announce in
                try await server.run(host: host, port: port) { url in
                    announce(StartLine(url: url, root: root))
                }
            }
        }
    }

    /// What `mds serve` prints once it listens.
    struct StartLine: ServerStartLine {
        let url: String
        let root: String

        /// Two lines: the URL, then the root's PEM.
        var text: String {
            "passkey conformance mds listening on \(url)\n" + root.trimmingCharacters(in: .newlines)
        }
    }
}
