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
            let directory = try await reportingRefusals { () throws(WebAuthnClientError) in try store.directory() }
            let line = startLine(store: directory)
            let url = url
            try await BridgedBrowser.running(engine: engine, headless: headless, store: store, profile: profile) {
                browser in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
                try await browser.launch(url).run()
            }
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
