public import Auth0Passkeys
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Where a native application hears the tenant's redirect: an HTTP listener on the loopback
/// interface at a port the system picks, for as long as a body runs (RFC 8252 §7.3, §8.3: a
/// loopback IP literal, not `localhost`; any port, the path fixed).
///
/// ```swift
/// let credentials = try await RedirectListener.listening { listener in
///     try await WebAuth(authentication: auth).redirectURL(listener.url)
///         .start(using: BrowserUserAgent.system(listener))
/// }
/// ```
///
/// Every `GET` of the path is handed to ``next(timeout:)`` in order and answered with a small
/// page that asks the person to go back to the application; anything else gets 404.
///
/// It can also be the application's **invoke URL** at a passkey provider in embedded mode
/// (issue 40, the local tenant's README "embedded mode"): ``Invocation`` names the path, and a
/// `GET` there whose `url` is an authenticate URL
/// (`EmbeddedAuthentication/isAuthenticateURL(_:)`) is answered by the
/// application's handler (its embedded SDK's `authenticate`) with a 302 to the URL the handler
/// returns, which the browser opens with its own cookies. Since the provider redirects to the
/// invoke URL it registered, such a listener listens at that URL's port.
public struct RedirectListener: Sendable {
    /// The invoke URL's path and what answers it.
    public struct Invocation: Sendable {
        /// The path, `/invoke` say.
        public var path: String
        /// Given the authenticate URL, the URL to send the browser to next.
        public var answer: @Sendable (String) async throws -> String

        /// Creates an invocation handler.
        ///
        /// - Parameters:
        ///   - path: the invoke URL's path.
        ///   - answer: given the authenticate URL, the redirect URL the provider answered.
        public init(path: String, answer: @escaping @Sendable (String) async throws -> String) {
            self.path = path
            self.answer = answer
        }
    }

    /// The redirect URL: `http://127.0.0.1:PORT/PATH`.
    public let url: String
    /// `http://127.0.0.1:PORT`, which each request's target follows.
    private let origin: String
    /// The targets (path and query) of the requests of the path, in order.
    private let redirects: AsyncStream<String>

    /// Listens on `127.0.0.1` at a free port (or `port`) while `body` runs, then stops.
    ///
    /// - Parameters:
    ///   - path: the redirect URL's path; `/callback` by default.
    ///   - port: the port; 0 (the default) for one the system picks.
    ///   - invocation: the invoke URL's path and handler, or `nil` for none.
    ///   - body: what to do while it listens.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; ``BrowserError`` `launch-failed` when nothing can listen.
    public static func listening<Value: Sendable>(
        path: String = "/callback", port: Int = 0, invocation: Invocation? = nil,
        _ body: @Sendable (RedirectListener) async throws -> Value
    ) async throws -> Value {
        let (redirects, deliver) = AsyncStream.makeStream(of: String.self)
        let (started, announce) = AsyncStream.makeStream(of: Int.self)
        let router = Router()
        router.get(RouterPath(path)) { request, _ in
            deliver.yield(request.uri.string)
            return Self.page
        }
        if let invocation {
            router.get(RouterPath(invocation.path)) { request, _ in
                await Self.invoke(request.uri.queryParameters.get("url"), invocation)
            }
        }
        let application = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in announce.yield(channel.localAddress?.port ?? 0) },
            logger: Logger(label: "passkey-redirect", factory: { _ in SwiftLogNoOpLogHandler() }))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer {
                    announce.finish()
                    deliver.finish()
                }
                // The caller's own signal handling stops it, by cancelling.
                try await application.runService(gracefulShutdownSignals: [])
            }
            var ports = started.makeAsyncIterator()
            guard let port = await ports.next() else {
                try await group.next()
                throw BrowserError(.launchFailed, "the redirect listener stopped before it listened")
            }
            defer { group.cancelAll() }
            return try await body(
                RedirectListener(
                    url: "http://127.0.0.1:\(port)\(path)", origin: "http://127.0.0.1:\(port)", redirects: redirects))
        }
    }

    /// The next redirect, query and fragment as the request line carried them.
    ///
    /// - Parameter timeout: how long to wait.
    /// - Returns: the URL the browser was sent to.
    /// - Throws: ``BrowserError`` `launch-failed` when none came in time or the listener stopped;
    ///   `CancellationError` when the task is cancelled.
    public func next(timeout: Duration = .seconds(300)) async throws -> String {
        let redirects = redirects
        return try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                var iterator = redirects.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let url = first else {
                try Task.checkCancellation()
                throw BrowserError(.launchFailed, "no redirect reached \(self.url) within \(timeout)")
            }
            return origin + url
        }
    }

    /// The invoke URL's answer: a 302 to where the handler says, or a 400 page when the `url` is
    /// not an authenticate URL or the handler fails (its reason, never the URL: it is a secret).
    private static func invoke(_ target: String?, _ invocation: Invocation) async -> Response {
        guard let target, EmbeddedAuthentication.isAuthenticateURL(target) else {
            return message(.badRequest, "Not an invocation", "The invoke URL needs an authenticate URL as its url.")
        }
        let next: String
        do {
            next = try await invocation.answer(target)
        } catch {
            return message(.badRequest, "Login failed", "The passkey login did not complete.")
        }
        var headers = HTTPFields()
        headers[.location] = next
        headers[.cacheControl] = "no-store"
        return Response(status: .found, headers: headers)
    }

    /// A small HTML page with `title` and `text`.
    private static func message(_ status: HTTPResponse.Status, _ title: String, _ text: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[values: .contentSecurityPolicy] = ["default-src 'none'; frame-ancestors 'none'"]
        let html = """
            <!doctype html><html lang="en"><meta charset="utf-8"><title>\(title)</title><p>\(text)</p></html>
            """
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// What the browser shows once the tenant has redirected.
    private static var page: Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[values: .contentSecurityPolicy] = ["default-src 'none'; frame-ancestors 'none'"]
        let html = """
            <!doctype html><html lang="en"><meta charset="utf-8"><title>Signed in</title>
            <p>You can close this window and return to the application.</p></html>
            """
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
