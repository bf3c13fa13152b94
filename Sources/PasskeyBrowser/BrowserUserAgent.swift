public import Auth0Passkeys
import Subprocess
import SystemPackage

/// A ``RedirectListener`` and a browser as Web Auth's user agent: the browser opens the tenant's
/// page, the listener hears where the tenant sends it back (RFC 8252 §7.3).
///
/// - ``system(_:timeout:)``: the desktop's browser (`xdg-open`), where the person logs in.
/// - ``launching(_:timeout:_:)``: a browser this package starts (``BrowserLaunch``), closed once
///   the redirect arrives, where a page bridge answers the passkey requests.
public struct BrowserUserAgent: WebAuthUserAgent {
    /// Where the redirect is heard.
    public let listener: RedirectListener
    /// How long to wait for the redirect.
    public let timeout: Duration
    private let show: @Sendable (String) async throws -> Void
    private let showReturnsWhenClosed: Bool

    /// The desktop's browser, through `xdg-open` (freedesktop.org xdg-utils).
    ///
    /// - Parameters:
    ///   - listener: where the redirect is heard.
    ///   - timeout: how long the person has to log in.
    /// - Returns: the user agent.
    public static func system(_ listener: RedirectListener, timeout: Duration = .seconds(300)) -> BrowserUserAgent {
        BrowserUserAgent(listener: listener, timeout: timeout, showReturnsWhenClosed: false) { url in
            let result = try await Subprocess.run(
                .name("xdg-open"), arguments: [url], output: .discarded, error: .discarded)
            guard result.terminationStatus.isSuccess else {
                throw BrowserError(
                    .launchFailed, "xdg-open could not open the login page (\(result.terminationStatus))")
            }
        }
    }

    /// A browser started for this login, with its page bridge, and closed once the tenant has
    /// redirected back.
    ///
    /// - Parameters:
    ///   - listener: where the redirect is heard.
    ///   - timeout: how long to wait for the redirect.
    ///   - launch: the browser to start at a URL (its script, engine, headless mode).
    /// - Returns: the user agent.
    public static func launching(
        _ listener: RedirectListener, timeout: Duration = .seconds(120),
        _ launch: @escaping @Sendable (String) -> BrowserLaunch
    ) -> BrowserUserAgent {
        BrowserUserAgent(listener: listener, timeout: timeout, showReturnsWhenClosed: true) { url in
            try await launch(url).run()
        }
    }

    private init(
        listener: RedirectListener, timeout: Duration, showReturnsWhenClosed: Bool,
        show: @escaping @Sendable (String) async throws -> Void
    ) {
        self.listener = listener
        self.timeout = timeout
        self.show = show
        self.showReturnsWhenClosed = showReturnsWhenClosed
    }

    /// Shows `url` and returns the first redirect the listener hears.
    ///
    /// - Throws: ``BrowserError``: the browser could not start, closed before the redirect, or
    ///   none came within ``timeout``.
    public func open(_ url: String, awaitingRedirectTo redirectURL: String) async throws -> String {
        try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                try await show(url)
                if showReturnsWhenClosed {
                    throw BrowserError(.launchFailed, "the browser closed before the tenant redirected back")
                }
                return nil
            }
            group.addTask { try await listener.next(timeout: timeout) }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let redirect = result { return redirect }
            }
            throw BrowserError(.launchFailed, "no redirect came back")
        }
    }
}
