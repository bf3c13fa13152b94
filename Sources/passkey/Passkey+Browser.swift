import ArgumentParser
import Foundation
import PasskeyAuthenticator
import PasskeyBrowser
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
                flows too. A site uses only passkeys of RP IDs its origin may claim (WebAuthn L3 §5.1.3), or \
                whose https://RPID/.well-known/webauthn lists it (Related Origin Requests, §5.11; trusting \
                --cacert). The first ceremony of a site asks at the terminal (--consent ask, the default: \
                answer y or n on standard input), and the answer is remembered for the site in the store's \
                directory (sites.json); --consent never refuses a site not allowed before, --consent always \
                asks nothing. A refused site gets NotAllowedError. --sites lists the remembered sites, \
                --forget ORIGIN forgets one. Prints one line, then runs until the browser closes or on SIGINT \
                or SIGTERM, which close it. Uses a temporary browser profile, removed at exit. The store is \
                sealed under PASSKEY_PASSPHRASE when set, else its key file, as for create and get.
                """)

        @Option(help: "The browser engine (Debian packages chromium, firefox-esr).")
        var engine: BrowserEngine = .chromium

        @Flag(help: "Run the browser without a window.")
        var headless = false

        @OptionGroup var store: StoreOptions

        @Option(help: "The authenticator that answers: its algorithms, attestation, extensions and flags.")
        var profile: AuthenticatorProfile = .platform

        @Option(help: "At a site's first ceremony: ask at the terminal, allow every site, or refuse (never).")
        var consent: ConsentMode = .ask

        @Flag(help: "List the sites the store remembers a decision for, and exit.")
        var sites = false

        @Option(help: ArgumentHelp("Forget the decision remembered for this site, and exit.", valueName: "origin"))
        var forget: String?

        @OptionGroup var trust: CABundleOptions

        @OptionGroup var format: OutputOptions

        @Argument(help: "The page to open, an http or https URL.")
        var url: String?

        func validate() throws {
            switch (url, sites, forget) {
            case (let url?, false, nil):
                guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
                    throw ValidationError("the page to open is an http or https URL, not \(url)")
                }
            case (nil, true, nil):
                return
            case (nil, false, let origin?):
                guard (try? WebOrigin(origin)) != nil else {
                    throw ValidationError("--forget takes an origin (scheme://host[:port]), not \(origin)")
                }
            default:
                throw ValidationError("give the page to open, or --sites, or --forget ORIGIN")
            }
        }

        func run() async throws {
            let directory = try await reportingRefusals { () throws(WebAuthnClientError) in try store.directory() }
            let decisions = SiteDecisions(directory: directory)
            guard let url else {
                return try await manageSites(decisions)
            }
            // A damaged decisions file stops the command here, not at a site's first ceremony.
            _ = try await reportingBrowserErrors { () async throws(BrowserError) in try await decisions.decisions() }
            let line = startLine(store: directory)
            _ = try await BridgedBrowser.running(
                engine: engine, headless: headless, store: store, profile: profile, relatedOrigins: .http(trust),
                consent: .terminal(mode: consent, decisions: decisions, question: TerminalQuestion())
            ) { browser in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
                try await browser.launch(url).run()
            }
        }

        /// `--sites` or `--forget ORIGIN`.
        private func manageSites(_ decisions: SiteDecisions) async throws {
            guard let forget else {
                let list = try await reportingBrowserErrors { () async throws(BrowserError) in
                    try await decisions.decisions()
                }
                return printOutput(SiteList(list), json: format.json)
            }
            // validate() checked that it is an origin.
            let origin = try WebOrigin(forget)
            let forgot = try await reportingBrowserErrors { () async throws(BrowserError) in
                try await decisions.forget(origin)
            }
            guard forgot else {
                printError("browser: no decision is remembered for \(origin)")
                throw ExitCode(1)
            }
            printOutput(Forgotten(forgot: origin.description), json: format.json)
        }

        /// Runs `body`; a ``BrowserError`` prints one line and exits 1.
        private func reportingBrowserErrors<T>(_ body: () async throws(BrowserError) -> T) async throws -> T {
            do {
                return try await body()
            } catch {
                printError("browser: \(error.reason)")
                throw ExitCode(1)
            }
        }

        /// The one line printed once the browser starts: what runs, and how to stop it.
        func startLine(store directory: String) -> String {
            let stop =
                headless
                ? "press Ctrl-C or send SIGTERM to process \(getpid()) to stop"
                : "close the browser or press Ctrl-C to stop"
            return "passkey browser: \(engine.rawValue) at \(url ?? "") with the passkeys of \(directory); \(stop)"
        }

        /// What `browser --sites` prints: one line per remembered site.
        struct SiteList: CommandOutput {
            struct Site: Encodable {
                let origin: String
                let allowed: Bool
                let decided: String
            }

            let sites: [Site]

            init(_ decisions: [SiteDecisions.Decision]) {
                sites = decisions.map {
                    Site(origin: $0.origin, allowed: $0.allowed, decided: $0.decided.formatted(.iso8601))
                }
            }

            var text: String {
                sites.map { "\($0.allowed ? "allowed" : "refused")  \($0.origin)  \($0.decided)" }
                    .joined(separator: "\n")
            }
        }

        /// What `browser --forget ORIGIN` prints.
        struct Forgotten: CommandOutput {
            let forgot: String

            var text: String { "forgot \(forgot)" }
        }
    }
}
