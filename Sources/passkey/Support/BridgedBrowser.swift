import ArgumentParser
import Foundation
import PasskeyAuthenticator
import PasskeyBrowser
import PasskeyControl
import WebAuthn

/// A browser whose pages' passkey requests a store answers: an in-process control server on
/// 127.0.0.1, one session with one authenticator over the store, its page bridge script and a
/// relay for pages whose policy forbids the script's requests — what `passkey browser` and
/// `passkey login --web --browser` share.
struct BridgedBrowser: Sendable {
    let service: ControlService
    let session: String
    let authenticator: String
    let endpoint: ControlEndpoint
    let script: String
    /// The relay the browser's pages use where their policy forbids the bridge's `fetch`.
    let relay: BrowserRelay
    let engine: BrowserEngine
    let executable: String
    let headless: Bool

    /// The browser at `url`, with the bridge in every page and frame.
    func launch(_ url: String) -> BrowserLaunch {
        BrowserLaunch(
            engine: engine, executable: executable, url: url, script: script, headless: headless,
            loopbackServices: [String(endpoint.url.dropFirst("http://".count))], relay: relay)
    }

    /// Starts the control server over `store`'s directory with `profile`, runs `body`, and stops
    /// the server. SIGINT or SIGTERM stops the server, which cancels `body`.
    ///
    /// The server's ceremonies fetch related origins with `relatedOrigins` (WebAuthn L3 §5.11), and
    /// ask `consent` before the first ceremony of each site (every site may when `nil`).
    ///
    /// - Throws: `ExitCode(1)` after printing why, when the engine is missing, there is no
    ///   display for a windowed browser, or the store cannot be opened; what `body` throws.
    ///
    /// - Returns: what `body` returns; nil when a signal stopped the server first.
    static func running<Value: Sendable>(
        engine: BrowserEngine, headless: Bool, store: StoreOptions, profile: AuthenticatorProfile,
        relatedOrigins: RelatedOriginsFetcher?, consent: SiteConsent? = nil,
        _ body: @escaping @Sendable (BridgedBrowser) async throws -> Value
    ) async throws -> Value? {
        let environment = ProcessInfo.processInfo.environment
        let executable: String
        do {
            executable = try engine.locate(environment: environment)
        } catch {
            printError("browser: \(error.reason)")
            throw ExitCode(1)
        }
        if !headless, environment["DISPLAY"] ?? "" == "", environment["WAYLAND_DISPLAY"] ?? "" == "" {
            printError("browser: no display ($DISPLAY and $WAYLAND_DISPLAY are unset): pass --headless or use xvfb-run")
            throw ExitCode(1)
        }
        let directory = try await reportingRefusals { () throws(WebAuthnClientError) in try store.directory() }
        let custody = try await reportingRefusals { () async throws(WebAuthnClientError) in
            try await store.keys.tokenCustody(environment)
        }
        let service = ControlService(
            passphrase: StoreOptions.passphrase(environment: environment), custody: custody,
            relatedOrigins: relatedOrigins, consent: consent)
        let server = ControlServer(service: service, token: .random())
        let (started, announce) = AsyncStream.makeStream(of: ControlEndpoint.self)
        do {
            return try await withThrowingTaskGroup(of: Value?.self) { group in
                group.addTask {
                    // Returns on SIGINT or SIGTERM (Hummingbird's graceful shutdown).
                    defer { announce.finish() }
                    try await server.run(at: .tcp(host: "127.0.0.1", port: 0)) { announce.yield($0) }
                    return nil
                }
                var endpoints = started.makeAsyncIterator()
                guard let endpoint = await endpoints.next() else {
                    return try await group.next() ?? nil
                }
                let browser = try await Self.prepare(
                    service: service, endpoint: endpoint, directory: directory, profile: profile, engine: engine,
                    executable: executable, headless: headless)
                group.addTask { try await body(browser) }
                // The body ended, or a signal stopped the server: the other is cancelled.
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
        } catch let error as BrowserError {
            printError("browser: \(error.reason)")
            throw ExitCode(1)
        } catch let error as ControlError {
            printError("browser: \(error.description)")
            throw ExitCode(1)
        }
    }

    /// A session over the store, an authenticator with the profile, and its bridge script.
    private static func prepare(
        service: ControlService, endpoint: ControlEndpoint, directory: String, profile: AuthenticatorProfile,
        engine: BrowserEngine, executable: String, headless: Bool
    ) async throws(ControlError) -> BridgedBrowser {
        let session = await service.newSession()
        let authenticator = try await service.addAuthenticator(
            session: session,
            try VirtualAuthenticatorConfiguration(parameters: [
                "softpasskey:profile": .string(profile.name), "softpasskey:store": .string(directory),
            ]))
        let script = try await service.bridgeScript(
            session: session, authenticator: authenticator, endpoint: endpoint.url + "/bridge")
        let relay = BrowserRelay(
            capability: try await service.bridgeRelay(session: session, authenticator: authenticator),
            endpoint: endpoint.url + "/bridge", socket: "ws" + endpoint.url.dropFirst("http".count) + "/bridge/socket")
        return BridgedBrowser(
            service: service, session: session, authenticator: authenticator, endpoint: endpoint, script: script,
            relay: relay, engine: engine, executable: executable, headless: headless)
    }
}
