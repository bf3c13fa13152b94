import ArgumentParser
import Auth0Passkeys
import PasskeyAuthenticator
import PasskeyBrowser
import PasskeyControl
import PasskeyKit

/// `--web` and how the tenant's login page is shown: `login` and `signup` through Web Auth
/// (authorization code with PKCE, auth0-passkey-api.md §14) instead of the native passkey grant.
///
/// With `--connection NAME` (an upstream OpenID Connect connection of the tenant, issue 40) and
/// no `--browser`, no browser is started: the CLI follows the login itself
/// (`LoginPageUserAgent`) with the store's passkeys, through the upstream provider's login page
/// or, in the provider's embedded mode, its invoke URL (`--invoke-url`, which the provider's
/// client registers as its `invoke_url`).
struct WebLoginOptions: ParsableArguments {
    /// Who shows the tenant's login page.
    enum Browser: String, ExpressibleByArgument, CaseIterable {
        /// No browser: the CLI follows the redirects, runs the local tenants' login pages and
        /// answers an invoke URL with the store's passkeys.
        case noBrowser = "none"
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
            With --web: the browser. system (the default without --connection) opens the desktop's (xdg-open); \
            chromium or firefox start one whose passkey requests the store answers; none (the default with \
            --connection) starts none: the CLI follows the login itself through the local tenants' pages and an \
            upstream provider's invoke URL.
            """)
    var browser: Browser?

    @Option(
        name: .customLong("invoke-url"),
        help: """
            With --web: the app's invoke URL at a passkey provider in embedded mode (default \
            http://127.0.0.1/invoke), which the provider's client registers as its invoke_url; a redirect there is answered with a passkey of the store (the embedded \
            SDK's part). With --browser none it is never fetched; with a started browser, give it a port and the \
            loopback listener answers it there (RFC 8252 §7.3).
            """)
    var invokeURL: String?

    /// The invoke URL a provider's client registers for the CLI when `--invoke-url` is not given.
    static let defaultInvokeURL = "http://127.0.0.1/invoke"

    @Flag(help: "With --web --browser chromium|firefox: run the browser without a window.")
    var headless = false

    @Option(name: .customLong("web-timeout"), help: "With --web: seconds to wait for the tenant's redirect.")
    var timeout = 120

    func validate() throws {
        if !web, browser != nil || headless || invokeURL != nil {
            throw ValidationError("--browser, --headless and --invoke-url go with --web")
        }
        if headless, browser?.engine == nil {
            throw ValidationError("--headless needs --browser chromium or firefox")
        }
        if let invokeURL, !invokeURL.hasPrefix("https://"), !invokeURL.hasPrefix("http://") {
            throw ValidationError("--invoke-url is an absolute http or https URL")
        }
        guard (1...3600).contains(timeout) else {
            throw ValidationError("--web-timeout is between 1 and 3600 seconds")
        }
    }

    /// Who shows the page: `--browser`, else no browser with `--connection` and the desktop's
    /// without.
    func browser(connection: String?) -> Browser {
        browser ?? (connection == nil ? .system : .noBrowser)
    }

    /// Logs `user` in on the tenant's page: a loopback redirect listener, and the page shown by
    /// the chosen browser. With a started browser the store answers the page through the bridge;
    /// a login's conditional request (the identifier field's passkey autofill) is answered with
    /// `choice`, as a person picking from autofill. With no browser, `device` answers every page
    /// and the invoke URL, and the redirect is never fetched.
    func logIn(
        _ user: VirtualUser, connection: String?, signUp: Bool, loginHint: String?, choosing choice: AccountChoice,
        store: StoreOptions, profile: AuthenticatorProfile, device: () async throws -> VirtualDevice
    ) async throws -> WebLogInResult {
        let wait = Duration.seconds(timeout)
        let browser = browser(connection: connection)
        if browser == .noBrowser {
            let agent = LoginPageUserAgent(
                device: try await device(), ceremony: signUp ? .signUp(identifier: loginHint ?? "") : .logIn,
                invokeURL: invokeURL ?? Self.defaultInvokeURL, choosing: choice,
                // The tenant's transport (`--cacert`) and trace (`-v`) for every hop, the provider's too.
                transport: user.tenant.transport, logger: user.tenant.logger)
            return try await user.logInOnTheWeb(
                redirectURL: Self.headlessRedirectURL, signUp: signUp, loginHint: loginHint, using: agent)
        }
        let (port, invocation) = try await self.invocation(choosing: choice, device: device)
        guard let engine = browser.engine else {
            return try await RedirectListener.listening(port: port, invocation: invocation) { listener in
                try await user.logInOnTheWeb(
                    redirectURL: listener.url, signUp: signUp, loginHint: loginHint,
                    using: BrowserUserAgent.system(listener, timeout: wait))
            }
        }
        // The user's own tenant: no consent asked; related origins through the tenant's transport (`--cacert`).
        let result = try await BridgedBrowser.running(
            engine: engine, headless: headless, store: store, profile: profile,
            relatedOrigins: .http(user.tenant.transport)
        ) {
            browser in
            try await RedirectListener.listening(port: port, invocation: invocation) { listener in
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
                        // No one clicks in a started browser: a signup page starts its ceremony on
                        // load (the local tenant's ext-passkey-autostart).
                        try await user.logInOnTheWeb(
                            redirectURL: listener.url, signUp: signUp, loginHint: loginHint,
                            parameters: signUp ? ["ext-passkey-autostart": "true"] : [:],
                            using: BrowserUserAgent.launching(listener, timeout: wait) { browser.launch($0) })
                    }
                    defer { group.cancelAll() }
                    while let result = try await group.next() {
                        if let result { return result }
                    }
                    throw WebAuthError(.userCancelled, "The login was cancelled.")
                }
            }
        }
        guard let result else { throw WebAuthError(.userCancelled, "The login was stopped by a signal.") }
        return result
    }
}

extension WebLoginOptions {
    /// The loopback listener's port and invoke URL handler: with a browser, an invoke URL
    /// `http://127.0.0.1:PORT/PATH` is answered by the listener at that port (RFC 8252 §7.3), the
    /// store's device logging in at the provider (or cancelling there when it refuses); any
    /// other invoke URL leaves the listener at a free port with none.
    private func invocation(choosing choice: AccountChoice, device: () async throws -> VirtualDevice)
        async throws -> (port: Int, invocation: RedirectListener.Invocation?)
    {
        let prefix = "http://127.0.0.1:"
        guard let invokeURL, invokeURL.hasPrefix(prefix) else { return (0, nil) }
        let rest = invokeURL.dropFirst(prefix.count)
        let digits = rest.prefix { $0.isNumber }
        guard let port = Int(digits), (1...65535).contains(port), rest.dropFirst(digits.count).hasPrefix("/") else {
            return (0, nil)
        }
        let path = String(rest.dropFirst(digits.count).prefix { $0 != "?" && $0 != "#" })
        let device = try await device()
        return (
            port,
            RedirectListener.Invocation(path: path) { target in
                try await EmbeddedAuthentication().invoke(url: target, device: device, choosing: choice)
            }
        )
    }

    /// The redirect URL with no browser: one of the local tenant's default callbacks (a loopback
    /// URL without a port, RFC 8252 §7.3), never fetched.
    static let headlessRedirectURL = "http://127.0.0.1/callback"
}

extension WebLoginOptions.Browser {
    /// The engine to start; nil for the desktop's browser and for none.
    var engine: BrowserEngine? {
        switch self {
        case .noBrowser, .system: nil
        case .chromium: .chromium
        case .firefox: .firefox
        }
    }
}
