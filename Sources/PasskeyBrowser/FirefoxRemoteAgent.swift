import Auth0Passkeys
import BlockingIO
import HummingbirdWSClient
import Logging

/// Firefox driven over its remote agent: started with `--remote-debugging-port=0` and a temporary
/// profile, it prints `WebDriver BiDi listening on ws://127.0.0.1:P` on standard error; a BiDi
/// session at `ws://127.0.0.1:P/session` then adds the script as a preload script and navigates
/// the first tab to the page. The session (and so the preload script) lasts as long as the
/// WebSocket, which stays open until the browser ends.
package enum FirefoxRemoteAgent {
    /// The standard-error line prefix that gives the remote agent's WebSocket URL.
    static let listeningPrefix = "WebDriver BiDi listening on "

    /// The remote agent's session URL, when `line` announces it.
    ///
    /// - Parameter line: a line of Firefox's standard error (the announcement starts one).
    /// - Returns: `ws://HOST:PORT/session`, or `nil`.
    package static func sessionURL(announcedBy line: String) -> String? {
        guard line.hasPrefix(listeningPrefix) else { return nil }
        let base = line.dropFirst(listeningPrefix.count).prefix { !$0.isWhitespace }
        guard base.hasPrefix("ws://") else { return nil }
        return (base.hasSuffix("/") ? String(base.dropLast()) : String(base)) + "/session"
    }

    /// Firefox's command line.
    ///
    /// The WebSocket client sends `Origin: ws://127.0.0.1`, which the remote agent refuses unless
    /// allowed (`--remote-allow-origins`); no web page has a `ws:` origin, so pages still cannot
    /// reach the agent.
    ///
    /// - Parameters:
    ///   - launch: what to open.
    ///   - profileDirectory: the temporary profile.
    /// - Returns: the arguments.
    package static func arguments(_ launch: BrowserLaunch, profileDirectory: String) -> [String] {
        [
            "--remote-debugging-port=0", "--remote-allow-origins=ws://127.0.0.1", "--profile", profileDirectory,
            "--no-remote",
        ]
            + (launch.headless ? ["--headless"] : []) + ["about:blank"]
    }

    /// The profile's `user.js`: each loopback service in the public address space (Local
    /// Network Access), and no first-run pages.
    ///
    /// - Parameter launch: what to open.
    /// - Returns: the file's text.
    package static func userPreferences(_ launch: BrowserLaunch) -> String {
        var preferences: [(String, String)] = [
            ("browser.shell.checkDefaultBrowser", "false"), ("browser.aboutwelcome.enabled", "false"),
            ("browser.startup.homepage_override.mstone", "\"ignore\""),
            ("datareporting.policy.dataSubmissionPolicyBypassNotification", "true"),
        ]
        if !launch.loopbackServices.isEmpty {
            preferences.append(
                (
                    "network.lna.address_space.public.override",
                    "\"" + launch.loopbackServices.joined(separator: ",") + "\""
                ))
        }
        return preferences.map { "user_pref(\"\($0.0)\", \($0.1));\n" }.joined()
    }

    /// Opens a BiDi session at `url`, installs `script` as a preload script, navigates the first
    /// top-level browsing context to `page`, and keeps the session until the agent closes it. With
    /// a relay, the preload script gets the relay's channel, and the session answers its
    /// `script.message` events (``FirefoxRelay``), each request concurrently.
    ///
    /// - Throws: ``BrowserError`` `driver-failed`.
    static func install(
        script: String, page: String, relay: BrowserRelay?, at url: String, logger: Logger
    ) async throws(BrowserError) {
        do {
            let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 24)
            try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) {
                inbound, outbound, _ in
                let connection = BiDiConnection(outbound: outbound)
                let relay = relay.map {
                    FirefoxRelay($0, connection: connection, transport: CurlTransport(), logger: logger)
                }
                let (events, event) = AsyncStream.makeStream(of: String.self)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        defer { event.finish() }
                        try await connection.read(inbound.messages(maxSize: 1 << 24)) { method, text in
                            if method == BiDiMessage.Message.method { event.yield(text) }
                        }
                    }
                    group.addTask {
                        await withDiscardingTaskGroup { requests in
                            for await text in events {
                                if let work = relay?.receive(text) { requests.addTask { await work() } }
                            }
                        }
                    }
                    try await open(page, script: script, relay: relay != nil, over: connection)
                    logger.debug("firefox: preload script added, navigating to \(page)")
                    // The reader ends when the agent closes the connection (the browser ends).
                    try await group.next()
                    group.cancelAll()
                }
            }
        } catch let error as BrowserError {
            throw error
        } catch {
            throw BrowserError(.driverFailed, "the WebDriver BiDi connection to \(url) failed: \(error)")
        }
    }

    /// The session's first commands: a new session (subscribed to the relay's messages), the
    /// preload script, and the navigation of the first top-level context to `page`.
    private static func open(_ page: String, script: String, relay: Bool, over connection: BiDiConnection)
        async throws
    {
        _ = try await connection.call(BiDiMessage.NewSession.method, BiDiMessage.NewSession(), BiDiMessage.Ignored.self)
        if relay {
            _ = try await connection.call(
                BiDiMessage.Subscribe.method, BiDiMessage.Subscribe(events: [BiDiMessage.Message.method]),
                BiDiMessage.Ignored.self)
        }
        _ = try await connection.call(
            BiDiMessage.AddPreloadScript.method,
            relay ? FirefoxRelay.preload(script) : BiDiMessage.AddPreloadScript(script: script),
            BiDiMessage.Ignored.self)
        let tree = try await connection.call(BiDiMessage.GetTree.method, BiDiMessage.GetTree(), BiDiMessage.Tree.self)
        guard let context = tree.contexts.first?.context else {
            throw BrowserError(.driverFailed, "Firefox has no window to open \(page) in")
        }
        _ = try await connection.call(
            BiDiMessage.Navigate.method, BiDiMessage.Navigate(context: context, url: page), BiDiMessage.Ignored.self)
    }
}

extension BrowserLaunch {
    /// Writes the profile and runs Firefox, driving it over BiDi, until it ends.
    func runFirefox(in scratch: ScratchDirectory, logger: Logger) async throws(BrowserError) {
        try await scratch.save("user.js", Array(FirefoxRemoteAgent.userPreferences(self).utf8))
        let arguments = FirefoxRemoteAgent.arguments(self, profileDirectory: scratch.path)
        logger.debug("firefox: \(arguments.joined(separator: " "))")
        let script = script
        let url = url
        let relay = relay
        try await BrowserProcess.run(executable, arguments, logger: logger) { lines throws(BrowserError) in
            for await line in lines {
                if let session = FirefoxRemoteAgent.sessionURL(announcedBy: line) {
                    try await FirefoxRemoteAgent.install(
                        script: script, page: url, relay: relay, at: session, logger: logger)
                    return
                }
            }
            // Standard error ended without the announcement: the exit status says why.
        }
    }
}
