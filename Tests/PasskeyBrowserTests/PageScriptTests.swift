import Foundation
import Hummingbird
import Logging
import PasskeyBrowser
import Synchronization
import Testing

/// The script runs in the real engines, headless: once in every frame, a cross-origin one too,
/// before the page's own scripts and in the page's world; and cancelling the run closes the browser.
@Suite struct PageScriptTests {
    /// What the pages' own scripts saw, by frame (`top`, `frame`, `lna`), or what happened.
    final class Reports: Sendable {
        private let seen = Mutex<[String: (value: String, at: ContinuousClock.Instant)]>([:])

        func record(_ frame: String, _ value: String) { seen.withLock { $0[frame] = (value, .now) } }

        var all: [String: String] { seen.withLock { $0.mapValues(\.value) } }

        /// How long ago `frame` first reported, if it has.
        func age(_ frame: String) -> Duration? { seen.withLock { $0[frame].map { .now - $0.at } } }
    }

    static let script = "window.softpasskeyTestRuns = (window.softpasskeyTestRuns || 0) + 1;"

    /// A page whose inline script reports the script's count, with a cross-origin iframe (the same
    /// server reached as `localhost`) that does the same.
    static func router(_ reports: Reports) -> Router<BasicRequestContext> {
        let router = Router()
        @Sendable func page(_ frame: String, _ extra: String) -> Response {
            let html = """
                <!doctype html><html><body><script>
                fetch('/report?frame=\(frame)&runs=' + String(window.softpasskeyTestRuns));
                </script>\(extra)</body></html>
                """
            return Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
        }
        router.get("/") { request, _ in
            let port = request.head.authority?.split(separator: ":").last ?? ""
            return page("top", "<iframe src=\"http://localhost:\(port)/frame\"></iframe>")
        }
        router.get("/frame") { _, _ in page("frame", "") }
        router.get("/lna") { _, _ in
            let html = """
                <!doctype html><html><body><script>
                fetch('/report?frame=loaded&runs=1');
                const service = new URLSearchParams(location.search).get('service');
                fetch('http://127.0.0.1:' + service + '/report?frame=lna&runs=1', {mode: 'no-cors'})
                  .then(() => 'reached', () => 'blocked')
                  .then((outcome) => fetch('/report?frame=lna&runs=' + outcome));
                </script></body></html>
                """
            return Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
        }
        addReports(to: router, reports)
        return router
    }

    /// `GET /report?frame=F&runs=R`: what frame F saw, recorded in `reports`.
    static func addReports(to router: Router<BasicRequestContext>, _ reports: Reports) {
        router.get("/report") { request, _ in
            reports.record(
                request.uri.queryParameters["frame"].map(String.init) ?? "?",
                request.uri.queryParameters["runs"].map(String.init) ?? "?")
            return HTTPResponse.Status.noContent
        }
    }

    static func installed(_ engine: BrowserEngine) -> Bool {
        (try? engine.locate(environment: ProcessInfo.processInfo.environment)) != nil
    }

    /// Serves the test pages (or `pages`) on a free loopback port while `body` runs, given the port.
    static func serving<Value: Sendable>(
        _ reports: Reports, pages: Router<BasicRequestContext>? = nil, _ body: @Sendable (Int) async throws -> Value
    ) async throws -> Value {
        let (started, announce) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: pages ?? router(reports),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { announce.yield($0.localAddress?.port ?? 0) },
            logger: Logger(label: "page-script-tests", factory: { _ in SwiftLogNoOpLogHandler() }))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService(gracefulShutdownSignals: []) }
            defer { group.cancelAll() }
            var ports = started.makeAsyncIterator()
            return try await body(try #require(await ports.next()))
        }
    }

    /// Runs the browser until `done` holds (`limit` at most), then closes it. The bounds leave room
    /// for a machine whose two cores other builds share: Firefox took over a minute to start and
    /// close there, past the two minutes these tests once had.
    ///
    /// - Returns: whether the browser had ended by itself before.
    static func run(
        _ launch: BrowserLaunch, within limit: Duration = .seconds(120), until done: @escaping @Sendable () -> Bool
    ) async throws -> Bool {
        let ended = Reports()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { ended.record("browser", "ended") }
                try await launch.run()
            }
            let deadline = ContinuousClock.now + limit
            while !done(), ended.all.isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            let endedEarly = !ended.all.isEmpty
            group.cancelAll()
            try await group.waitForAll()
            return endedEarly
        }
    }

    static func launch(_ engine: BrowserEngine, _ url: String, loopbackServices: [String] = []) throws
        -> BrowserLaunch
    {
        BrowserLaunch(
            engine: engine, executable: try engine.locate(environment: ProcessInfo.processInfo.environment),
            url: url, script: script, headless: true, loopbackServices: loopbackServices)
    }

    @Test(.timeLimit(.minutes(4)), arguments: BrowserEngine.allCases.filter(installed))
    func theScriptRunsFirstInEveryFrame(engine: BrowserEngine) async throws {
        let reports = Reports()
        let endedEarly = try await Self.serving(reports) { port in
            try await Self.run(try Self.launch(engine, "http://127.0.0.1:\(port)/")) { reports.all.count == 2 }
        }
        #expect(reports.all == ["top": "1", "frame": "1"])
        #expect(!endedEarly, "the browser ended before the test closed it")
    }

    /// A public site's request to loopback is a Local Network Access request: it passes for the
    /// loopback services named, and only for them: another is blocked (Chromium) or waits for the
    /// person's permission (Firefox). The page's own server is named too, to make it a public site.
    @Test(
        .timeLimit(.minutes(4)),
        arguments: BrowserEngine.allCases.filter(installed), [true, false])
    func aPublicPageReachesOnlyTheLoopbackServicesNamed(engine: BrowserEngine, named: Bool) async throws {
        let page = Reports()
        let service = Reports()
        let endedEarly = try await Self.serving(page) { pagePort in
            try await Self.serving(service) { servicePort in
                let launch = try Self.launch(
                    engine, "http://127.0.0.1:\(pagePort)/lna?service=\(servicePort)",
                    loopbackServices: ["127.0.0.1:\(pagePort)"] + (named ? ["127.0.0.1:\(servicePort)"] : []))
                // Once the page has loaded, a request held for permission is given 5 seconds.
                return try await Self.run(launch) {
                    page.all["lna"] != nil || (!named && page.age("loaded").map { $0 > .seconds(5) } == true)
                }
            }
        }
        #expect(!endedEarly, "the browser ended before the test closed it")
        #expect(page.all["loaded"] == "1")
        #expect((page.all["lna"] == "reached") == named)
        #expect((service.all["lna"] != nil) == named)
    }
}
