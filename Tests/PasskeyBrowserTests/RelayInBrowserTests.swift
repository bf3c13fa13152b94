import Foundation
import HTTPTypes
import Hummingbird
import PasskeyBrowser
import Testing
import WebAuthn

/// The relay in the real engines, headless, against a stand-in of the control server's
/// `POST /bridge/relay` (Chromium's worker falls back to it, as the stand-in has no socket): a page
/// whose policy allows no connection to it (`connect-src 'self'`) calls the relay, and the server
/// hears the origin the browser gives, not the one the page wrote; a cross-origin frame's request
/// carries its top-level origin; a sandboxed frame's opaque origin is refused before the server.
@Suite struct RelayInBrowserTests {
    static let capability = "relay-capability-for-the-test"

    /// The page script: the relay's answer to a request that claims another origin, reported.
    static func page(_ frame: String, _ extra: String) -> String {
        """
        <!doctype html><html><body><script>
        const relay = globalThis[Symbol.for("softpasskey.relay")];
        (typeof relay === "function"
          ? relay({route: "create", body: {origin: "https://evil.example", topOrigin: "https://evil.example"}})
          : Promise.resolve({status: 0}))
          .then((answer) => fetch('/report?frame=\(frame)&runs=' + encodeURIComponent(JSON.stringify(answer))));
        </script>\(extra)</body></html>
        """
    }

    static func router(_ reports: PageScriptTests.Reports) -> Router<BasicRequestContext> {
        let router = Router()
        @Sendable func html(_ text: String, policy: Bool) -> Response {
            var headers: HTTPFields = [.contentType: "text/html; charset=utf-8"]
            if policy { headers[HTTPField.Name("Content-Security-Policy")!] = "connect-src 'self'" }
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        router.get("/") { request, _ in
            let port = request.head.authority?.split(separator: ":").last ?? ""
            return html(
                page(
                    "top",
                    "<iframe src=\"http://localhost:\(port)/frame\"></iframe>"
                        + "<iframe sandbox=\"allow-scripts\" src=\"/opaque\"></iframe>"), policy: true)
        }
        router.get("/frame") { _, _ in html(page("frame", ""), policy: true) }
        router.get("/opaque") { _, _ in html(page("opaque", ""), policy: false) }
        router.post("/bridge/relay") { request, context in
            let call = try await request.decode(as: [String: JSONValue].self, context: context)
            let authorized = request.headers[.authorization] == "Bearer \(capability)"
            let origin = call["origin"] ?? .null
            reports.record("relay \(origin.stringValue ?? "none")", authorized ? "authorized" : "unauthorized")
            let value: JSONValue = .object(["origin": origin, "topOrigin": call["topOrigin"] ?? .null])
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: WebAuthnJSON.encode(["value": value]))))
        }
        PageScriptTests.addReports(to: router, reports)
        return router
    }

    @Test(.timeLimit(.minutes(4)), arguments: BrowserEngine.allCases.filter(PageScriptTests.installed))
    func theServerHearsTheBrowsersOriginOnly(engine: BrowserEngine) async throws {
        let reports = PageScriptTests.Reports()
        let (endedEarly, port) = try await PageScriptTests.serving(reports, pages: Self.router(reports)) { served in
            let relay = BrowserRelay(
                capability: Self.capability, endpoint: "http://127.0.0.1:\(served)/bridge",
                socket: "ws://127.0.0.1:\(served)/bridge/socket")
            var launch = try PageScriptTests.launch(
                engine, "http://127.0.0.1:\(served)/", loopbackServices: ["127.0.0.1:\(served)"])
            launch.relay = relay
            let endedEarly = try await PageScriptTests.run(launch) {
                ["top", "frame", "opaque"].allSatisfy { reports.all[$0] != nil }
            }
            return (endedEarly, served)
        }
        #expect(!endedEarly, "the browser ended before the test closed it")
        let top = "http://127.0.0.1:\(port)"
        let frame = "http://localhost:\(port)"
        #expect(reports.all["top"] == #"{"status":200,"value":{"origin":"\#(top)","topOrigin":null}}"#)
        #expect(reports.all["frame"] == #"{"status":200,"value":{"origin":"\#(frame)","topOrigin":"\#(top)"}}"#)
        #expect(reports.all["opaque"]?.hasPrefix(#"{"status":403,"#) == true, "\(reports.all)")
        #expect(reports.all["relay \(top)"] == "authorized")
        #expect(reports.all["relay \(frame)"] == "authorized")
        #expect(reports.all.keys.filter { $0.hasPrefix("relay") }.count == 2, "\(reports.all)")
    }
}
