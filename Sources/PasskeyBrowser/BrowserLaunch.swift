import BlockingIO
public import Logging

/// A browser to open: the engine, the page, and the script that runs in every frame of every page
/// before the page's own scripts (the WebAuthn page bridge, for `passkey browser`).
///
/// ```
/// chromium  --user-data-dir=TMP/profile --load-extension=TMP/extension --no-first-run
///           --ip-address-space-overrides=127.0.0.1:PORT=public [--headless=new] URL
/// firefox   --remote-debugging-port=0 --profile TMP [--headless] about:blank, then over
///           ws://127.0.0.1:P/session: session.new, script.addPreloadScript, browsingContext.navigate
/// ```
///
/// ``run(logger:)`` starts the browser with a temporary profile, which it removes when the browser
/// has ended. The description and the mirror leave the script out: it may carry a capability.
public struct BrowserLaunch: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The engine.
    public var engine: BrowserEngine
    /// The engine's executable (``BrowserEngine/locate(environment:)`` finds it).
    public var executable: String
    /// The page opened first.
    public var url: String
    /// The script every frame runs before its own scripts: a self-contained script, evaluated as a
    /// classic script's statements.
    public var script: String
    /// Whether to run without a window.
    public var headless: Bool
    /// The `host:port` of loopback services the script calls from every page (the bridge's
    /// endpoint), given the public address space so that a public site's requests to them pass
    /// Local Network Access (Chromium's `--ip-address-space-overrides`, Firefox's
    /// `network.lna.address_space.public.override`) without opening loopback to anything else.
    public var loopbackServices: [String]
    /// The control server's relay, when the pages' requests go through the browser's own channel
    /// (``BrowserRelay``) rather than the page's `fetch`; `nil`: the page bridge fetches.
    public var relay: BrowserRelay?

    /// Describes a browser to open.
    ///
    /// - Parameters:
    ///   - engine: the engine.
    ///   - executable: its executable.
    ///   - url: the page opened first.
    ///   - script: the script every frame runs first.
    ///   - headless: whether to run without a window.
    ///   - loopbackServices: the `host:port` of the loopback services the script calls.
    ///   - relay: the control server's relay for the pages' requests, if any.
    public init(
        engine: BrowserEngine, executable: String, url: String, script: String, headless: Bool = false,
        loopbackServices: [String] = [], relay: BrowserRelay? = nil
    ) {
        self.engine = engine
        self.executable = executable
        self.url = url
        self.script = script
        self.headless = headless
        self.loopbackServices = loopbackServices
        self.relay = relay
    }

    /// `<engine> at <url>`, without the script.
    public var description: String { "\(engine.rawValue) at \(url)" }

    /// Empty: the script may carry a capability (STYLE §5).
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    /// Opens the browser with the script installed and waits until it ends: the person closes it
    /// (or it is sent SIGTERM, SIGINT or SIGHUP), or the calling task is cancelled, which closes it (SIGTERM, then SIGKILL to its process
    /// group 5 seconds later). Its temporary profile is removed either way.
    ///
    /// The browser runs in a process group of its own, so a terminal's Ctrl-C reaches only the
    /// caller, which closes it by cancelling. Waiting for it runs off the concurrency pool
    /// (swift-subprocess).
    ///
    /// - Parameter logger: where the browser's standard error and the driver's steps go, at
    ///   `debug`; nowhere by default.
    /// - Throws: ``BrowserError``: `launch-failed` when it cannot start or ends with a failure
    ///   status, `driver-failed` when Firefox's remote agent refuses a command, `file-system` when
    ///   the temporary profile cannot be written.
    public func run(
        logger: Logger = Logger(label: "passkey-browser", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(BrowserError) {
        let scratch = try await ScratchDirectory.forBrowser()
        do {
            switch engine {
            case .chromium: try await runChromium(in: scratch, logger: logger)
            case .firefox: try await runFirefox(in: scratch, logger: logger)
            }
        } catch {
            await scratch.discard()
            throw error
        }
        await scratch.discard()
    }
}
