import Foundation
import Hummingbird
import Logging
import PasskeyBrowser
import Synchronization
import Testing

/// The script runs in the real engines, headless: once in every frame, a cross-origin one too,
/// before the page's own scripts and in the page's world; and cancelling the run closes the browser.
@Suite struct PageScriptTests {
    /// What the pages' own scripts saw, by frame (`top`, `frame`).
    final class Reports: Sendable {
        private let seen = Mutex<[String: String]>([:])
        /// Whether the browser's run has ended (by itself, before the test closed it).
        let ended = Mutex(false)

        func record(_ frame: String, _ value: String) { seen.withLock { $0[frame] = value } }

        var all: [String: String] { seen.withLock { $0 } }
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
        router.get("/report") { request, _ in
            reports.record(
                request.uri.queryParameters["frame"].map(String.init) ?? "?",
                request.uri.queryParameters["runs"].map(String.init) ?? "?")
            return HTTPResponse.Status.noContent
        }
        return router
    }

    static func installed(_ engine: BrowserEngine) -> Bool {
        (try? engine.locate(environment: ProcessInfo.processInfo.environment)) != nil
    }

    @Test(
        .timeLimit(.minutes(2)),
        arguments: BrowserEngine.allCases.filter(installed))
    func theScriptRunsFirstInEveryFrame(engine: BrowserEngine) async throws {
        let reports = Reports()
        let (started, announce) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: Self.router(reports),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { announce.yield($0.localAddress?.port ?? 0) },
            logger: Logger(label: "page-script-tests", factory: { _ in SwiftLogNoOpLogHandler() }))
        let endedEarly = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService(gracefulShutdownSignals: []) }
            var ports = started.makeAsyncIterator()
            let port = try #require(await ports.next())
            let launch = BrowserLaunch(
                engine: engine, executable: try engine.locate(environment: ProcessInfo.processInfo.environment),
                url: "http://127.0.0.1:\(port)/", script: Self.script, headless: true)
            group.addTask {
                defer { reports.ended.withLock { $0 = true } }
                try await launch.run()
            }
            let deadline = ContinuousClock.now + .seconds(60)
            while reports.all.count < 2, !reports.ended.withLock({ $0 }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            let endedEarly = reports.ended.withLock { $0 }
            group.cancelAll()
            try await group.waitForAll()
            return endedEarly
        }
        #expect(reports.all == ["top": "1", "frame": "1"])
        #expect(!endedEarly, "the browser ended before the test closed it")
    }
}
