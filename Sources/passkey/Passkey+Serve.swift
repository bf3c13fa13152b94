import ArgumentParser
import Foundation
import PasskeyAuthenticator
import PasskeyControl

extension Passkey {
    /// `passkey serve`: the control API over HTTP for test runners in any language.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the control API: W3C WebDriver virtual authenticators, ceremonies, virtual users.",
            discussion: """
                Listens on loopback (or a Unix socket) until SIGINT or SIGTERM. Prints one start line with the URL \
                and the bearer token every request must carry (JSON with --json). Routes follow WebAuthn L3 §11 \
                under /session/{id}/webauthn/authenticator; see the README. File stores are sealed under \
                PASSKEY_PASSPHRASE when set, else each store's key file. With --backend pkcs11, the keys of \
                file stores' passkeys live in the token (in-memory authenticators keep theirs in memory).
                """)

        @Option(help: "The address to listen on.")
        var host = "127.0.0.1"

        @Option(help: "The port to listen on; 0 picks a free one.")
        var port = 0

        @Option(help: "Listen on this Unix domain socket instead of TCP (the file must not exist).")
        var socket: String?

        @Option(name: .customLong("token-file"), help: "Read the bearer token from this file instead of making one.")
        var tokenFile: String?

        @OptionGroup var keys: KeyBackendOptions

        @OptionGroup var relatedOrigins: RelatedOriginsOptions

        @OptionGroup var trust: CABundleOptions

        @OptionGroup var format: OutputOptions

        func validate() throws {
            guard (0...65535).contains(port) else {
                throw ValidationError("--port must be between 0 and 65535.")
            }
        }

        func run() async throws {
            let token: ControlToken
            if let tokenFile {
                guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8),
                    !ControlToken(text).value.isEmpty
                else {
                    printError("serve: cannot read a token from \(tokenFile)")
                    throw ExitCode(1)
                }
                token = ControlToken(text)
            } else {
                token = .random()
            }
            let environment = ProcessInfo.processInfo.environment
            let custody = try await reportingRefusals { () async throws(WebAuthnClientError) in
                try await keys.tokenCustody(environment)
            }
            let service = ControlService(
                passphrase: StoreOptions.passphrase(environment: environment), custody: custody,
                transport: trust.transport(ControlService.transportConfiguration, environment: environment),
                relatedOrigins: relatedOrigins.fetcher(trust))
            let server = ControlServer(service: service, token: token)
            let address: ControlAddress = socket.map { .unixSocket(path: $0) } ?? .tcp(host: host, port: port)
            try await serveReportingStart("serve", place: socket ?? "\(host):\(port)", json: format.json) { announce in
                try await server.run(at: address) { endpoint in
                    announce(ServeStartLine(url: endpoint.url, token: token.value, socket: endpoint.socket))
                }
            }
        }
    }

    /// What `serve` prints once it listens.
    struct ServeStartLine: ServerStartLine {
        let url: String
        let token: String
        let socket: String?

        var text: String {
            "passkey serve listening on \(socket.map { "unix:\($0)" } ?? url) token=\(token)"
        }
    }
}
