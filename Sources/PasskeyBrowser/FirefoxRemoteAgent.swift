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
    /// top-level browsing context to `page`, and keeps the session until the agent closes it.
    ///
    /// - Throws: ``BrowserError`` `driver-failed`.
    static func install(script: String, page: String, at url: String, logger: Logger) async throws(BrowserError) {
        do {
            let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 24)
            try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) {
                inbound, outbound, _ in
                var conversation = Conversation(
                    messages: inbound.messages(maxSize: 1 << 24).makeAsyncIterator(), outbound: outbound)
                _ = try await conversation.call(
                    BiDiMessage.NewSession.method, BiDiMessage.NewSession(), BiDiMessage.Ignored.self)
                _ = try await conversation.call(
                    BiDiMessage.AddPreloadScript.method, BiDiMessage.AddPreloadScript(script: script),
                    BiDiMessage.Ignored.self)
                let tree = try await conversation.call(
                    BiDiMessage.GetTree.method, BiDiMessage.GetTree(), BiDiMessage.Tree.self)
                guard let context = tree.contexts.first?.context else {
                    throw BrowserError(.driverFailed, "Firefox has no window to open \(page) in")
                }
                _ = try await conversation.call(
                    BiDiMessage.Navigate.method, BiDiMessage.Navigate(context: context, url: page),
                    BiDiMessage.Ignored.self)
                logger.debug("firefox: preload script added, navigating to \(page)")
                try await conversation.drain()
            }
        } catch let error as BrowserError {
            throw error
        } catch {
            throw BrowserError(.driverFailed, "the WebDriver BiDi connection to \(url) failed: \(error)")
        }
    }

    /// One BiDi session's commands, each awaited in turn.
    private struct Conversation {
        var messages: WebSocketInboundMessageStream.AsyncIterator
        let outbound: WebSocketOutboundWriter
        var nextID = 1

        /// Sends a command and returns its result, skipping events.
        mutating func call<Result: Decodable>(
            _ method: String, _ params: some Encodable & Sendable, _ type: Result.Type
        ) async throws -> Result {
            let id = nextID
            nextID += 1
            try await outbound.write(.text(BiDiMessage.command(id: id, method: method, params: params)))
            while let message = try await messages.next() {
                guard case .text(let text) = message else { continue }
                if let result = try BiDiMessage.answer(text, to: id, as: type) {
                    return result
                }
            }
            throw BrowserError(.driverFailed, "the remote agent closed the connection before answering \(method)")
        }

        /// Reads until the agent closes the connection (the browser ends).
        mutating func drain() async throws {
            while try await messages.next() != nil {}
        }
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
        try await BrowserProcess.run(executable, arguments, logger: logger) { lines throws(BrowserError) in
            for await line in lines {
                if let session = FirefoxRemoteAgent.sessionURL(announcedBy: line) {
                    try await FirefoxRemoteAgent.install(script: script, page: url, at: session, logger: logger)
                    return
                }
            }
            // Standard error ended without the announcement: the exit status says why.
        }
    }
}
