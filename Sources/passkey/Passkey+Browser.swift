import ArgumentParser
import Foundation
import PasskeyAuthenticator
import PasskeyBrowser
import PasskeyControl
import WebAuthn

extension Passkey {
    /// `passkey browser`: a browser whose pages' passkey requests the store answers, through the
    /// page bridge of an in-process control server.
    struct Browser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "browser",
            abstract: "Open a web page in Chromium or Firefox whose passkey requests the store answers.",
            discussion: """
                Every page and frame gets the page bridge before its own scripts (Chromium: an extension's \
                content script; Firefox: a WebDriver BiDi preload script), answered by a control server on \
                127.0.0.1 over the store, so a passkey made on a site is then used by passkey get and the Auth0 \
                flows too. A site uses only passkeys of RP IDs its origin may claim (WebAuthn L3 §5.1.3), \
                without asking. Prints one line, then runs until the browser closes or on SIGINT or SIGTERM, \
                which close it. Uses a temporary browser profile, removed at exit. The store is sealed under \
                PASSKEY_PASSPHRASE when set, else its key file, as for create and get.
                """)

        @Option(help: "The browser engine (Debian packages chromium, firefox-esr).")
        var engine: BrowserEngine = .chromium

        @Flag(help: "Run the browser without a window.")
        var headless = false

        @OptionGroup var store: StoreOptions

        @Option(help: "The authenticator that answers: its algorithms, attestation, extensions and flags.")
        var profile: AuthenticatorProfile = .platform

        @Argument(help: "The page to open, an http or https URL.")
        var url: String

        func validate() throws {
            guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
                throw ValidationError("the page to open is an http or https URL, not \(url)")
            }
        }

        func run() async throws {
            let environment = ProcessInfo.processInfo.environment
            let executable: String
            do {
                executable = try engine.locate(environment: environment)
            } catch {
                printError("browser: \(error.reason)")
                throw ExitCode(1)
            }
            if !headless, environment["DISPLAY"] ?? "" == "", environment["WAYLAND_DISPLAY"] ?? "" == "" {
                printError(
                    "browser: no display ($DISPLAY and $WAYLAND_DISPLAY are unset): pass --headless or use xvfb-run")
                throw ExitCode(1)
            }
            let directory = try await reportingRefusals { () throws(WebAuthnClientError) in try store.directory() }
            let custody = try await reportingRefusals { () async throws(WebAuthnClientError) in
                try await store.keys.tokenCustody(environment)
            }
            let service = ControlService(
                passphrase: StoreOptions.passphrase(environment: environment), custody: custody)
            let server = ControlServer(service: service, token: .random())
            let (started, announce) = AsyncStream.makeStream(of: ControlEndpoint.self)
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        // Returns on SIGINT or SIGTERM (Hummingbird's graceful shutdown).
                        defer { announce.finish() }
                        try await server.run(at: .tcp(host: "127.0.0.1", port: 0)) { announce.yield($0) }
                    }
                    var endpoints = started.makeAsyncIterator()
                    guard let endpoint = await endpoints.next() else {
                        try await group.next()
                        return
                    }
                    let launch = try await bridgedLaunch(
                        service: service, endpoint: endpoint, directory: directory, executable: executable)
                    FileHandle.standardOutput.write(Data((startLine(store: directory) + "\n").utf8))
                    group.addTask { try await launch.run() }
                    // The browser closed, or a signal stopped the server: the other is cancelled.
                    try await group.next()
                    group.cancelAll()
                }
            } catch let error as BrowserError {
                printError("browser: \(error.reason)")
                throw ExitCode(1)
            } catch let error as ControlError {
                printError("browser: \(error.description)")
                throw ExitCode(1)
            }
        }

        /// A session over the store, an authenticator with the profile, and the browser with its
        /// bridge script.
        private func bridgedLaunch(
            service: ControlService, endpoint: ControlEndpoint, directory: String, executable: String
        ) async throws(ControlError) -> BrowserLaunch {
            let session = await service.newSession()
            let authenticator = try await service.addAuthenticator(
                session: session,
                try VirtualAuthenticatorConfiguration(parameters: [
                    "softpasskey:profile": .string(profile.name), "softpasskey:store": .string(directory),
                ]))
            let script = try await service.bridgeScript(
                session: session, authenticator: authenticator, endpoint: endpoint.url + "/bridge")
            return BrowserLaunch(
                engine: engine, executable: executable, url: url, script: script, headless: headless,
                loopbackServices: [String(endpoint.url.dropFirst("http://".count))])
        }

        /// The one line printed once the browser starts: what runs, and how to stop it.
        func startLine(store directory: String) -> String {
            let stop =
                headless
                ? "press Ctrl-C or send SIGTERM to process \(getpid()) to stop"
                : "close the browser or press Ctrl-C to stop"
            return "passkey browser: \(engine.rawValue) at \(url) with the passkeys of \(directory); \(stop)"
        }
    }
}
