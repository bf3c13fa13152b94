import ArgumentParser
import Auth0Passkeys
import PasskeyAuthenticator
import PasskeyBrowser
import PasskeyControl
import PasskeyKit

/// `--web` and how the tenant's login page is shown: `login` and `signup` through Web Auth
/// (authorization code with PKCE, auth0-passkey-api.md §14) instead of the native passkey grant.
struct WebLoginOptions: ParsableArguments {
    /// Who shows the tenant's login page.
    enum Browser: String, ExpressibleByArgument, CaseIterable {
        /// The desktop's browser (`xdg-open`): a person logs in.
        case system
        /// Chromium, its passkey requests answered by the store through the page bridge.
        case chromium
        /// Firefox ESR, likewise.
        case firefox
    }

    @Flag(help: "Log in through the tenant's login page (Web Auth: /authorize with PKCE, a loopback redirect).")
    var web = false

    @Option(
        help: """
            With --web: the browser. system opens the desktop's (xdg-open); chromium or firefox start one whose \
            passkey requests the store answers.
            """)
    var browser: Browser = .system

    @Flag(help: "With --web --browser chromium|firefox: run the browser without a window.")
    var headless = false

    @Option(name: .customLong("web-timeout"), help: "With --web: seconds to wait for the tenant's redirect.")
    var timeout = 120

    func validate() throws {
        if !web, browser != .system || headless {
            throw ValidationError("--browser and --headless go with --web")
        }
        if headless, browser == .system {
            throw ValidationError("--headless needs --browser chromium or firefox")
        }
        guard (1...3600).contains(timeout) else {
            throw ValidationError("--web-timeout is between 1 and 3600 seconds")
        }
    }

    /// Logs `user` in on the tenant's page: a loopback redirect listener, and the page shown by
    /// the chosen browser. With a started browser the store answers the page through the bridge;
    /// a login's conditional request (the identifier field's passkey autofill) is answered with
    /// `choice`, as a person picking from autofill.
    func logIn(
        _ user: VirtualUser, signUp: Bool, loginHint: String?, choosing choice: AccountChoice,
        store: StoreOptions, profile: AuthenticatorProfile
    ) async throws -> WebLogInResult {
        let wait = Duration.seconds(timeout)
        guard let engine = browser.engine else {
            return try await RedirectListener.listening { listener in
                try await user.logInOnTheWeb(
                    redirectURL: listener.url, signUp: signUp, loginHint: loginHint,
                    using: BrowserUserAgent.system(listener, timeout: wait))
            }
        }
        return try await BridgedBrowser.running(engine: engine, headless: headless, store: store, profile: profile) {
            browser in
            try await RedirectListener.listening { listener in
                try await withThrowingTaskGroup(of: WebLogInResult?.self) { group in
                    if !signUp {
                        group.addTask {
                            // The page asks with conditional mediation; a page that asks modally
                            // (or skips the ceremony on a session) leaves this waiting until cancelled.
                            _ = try? await browser.service.pickConditional(
                                session: browser.session, authenticator: browser.authenticator, choosing: choice,
                                timeout: wait)
                            return nil
                        }
                    }
                    group.addTask {
                        try await user.logInOnTheWeb(
                            redirectURL: listener.url, signUp: signUp, loginHint: loginHint,
                            using: BrowserUserAgent.launching(listener, timeout: wait) { browser.launch($0) })
                    }
                    defer { group.cancelAll() }
                    while let result = try await group.next() {
                        if let result { return result }
                    }
                    throw CancellationError()
                }
            }
        }
    }
}

extension WebLoginOptions.Browser {
    /// The engine to start; nil for the desktop's browser.
    var engine: BrowserEngine? {
        switch self {
        case .system: nil
        case .chromium: .chromium
        case .firefox: .firefox
        }
    }
}
