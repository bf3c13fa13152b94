import Auth0Passkeys
import PasskeyBrowser
import Testing
import WebAuthn

/// The loopback redirect listener (RFC 8252 §7.3): a real HTTP server on 127.0.0.1, reached with
/// libcurl as a browser would follow the tenant's redirect.
@Suite struct RedirectListenerTests {
    @Test func redirectsArriveInOrderWithTheirQuery() async throws {
        try await RedirectListener.listening { listener in
            #expect(listener.url.hasPrefix("http://127.0.0.1:") && listener.url.hasSuffix("/callback"))
            let transport = CurlTransport()
            let page = try await transport.send(HTTPRequest(method: .get, url: listener.url + "?code=c1&state=s1"))
            #expect(page.status == 200)
            #expect(String(decoding: page.body, as: UTF8.self).contains("close this window"))
            _ = try await transport.send(HTTPRequest(method: .get, url: listener.url + "?error=access_denied&state=s2"))
            #expect(try await listener.next() == listener.url + "?code=c1&state=s1")
            #expect(try await listener.next() == listener.url + "?error=access_denied&state=s2")
            // Another path is not a redirect.
            let elsewhere = try await transport.send(
                HTTPRequest(method: .get, url: listener.url.replacing("/callback", with: "/other")))
            #expect(elsewhere.status == 404)
        }
    }

    @Test func nothingArrivingTimesOut() async throws {
        try await RedirectListener.listening { listener in
            do {
                _ = try await listener.next(timeout: .milliseconds(200))
                Issue.record("a redirect arrived from nowhere")
            } catch let error as BrowserError {
                #expect(error.code == .launchFailed)
            }
        }
    }

    /// As the app's invoke URL: an authenticate URL in `url` goes to the handler and the browser
    /// to the URL it returns (302); anything else, or a handler that fails, is a 400 page that
    /// repeats neither URL.
    @Test func anInvocationIsAnsweredWithARedirectToTheHandlersURL() async throws {
        let target = "https://localhost:8443/embedded/authenticate?request=s3cr3t-request"
        let invocation = RedirectListener.Invocation(path: "/invoke") { url in
            guard url == target else { throw BrowserError(.launchFailed, "not the authenticate URL") }
            return "https://localhost:8443/embedded/continue?request=once"
        }
        try await RedirectListener.listening(invocation: invocation) { listener in
            let invoke = listener.url.replacing("/callback", with: "/invoke")
            let transport = CurlTransport()
            let answered = try await transport.send(
                HTTPRequest(method: .get, url: invoke + "?url=" + PercentEncoding.encode(target)))
            #expect(answered.status == 302)
            #expect(answered.header("Location") == "https://localhost:8443/embedded/continue?request=once")
            for url in ["https://localhost:8443/embedded/continue?request=x", target + "x"] {
                let refused = try await transport.send(
                    HTTPRequest(method: .get, url: invoke + "?url=" + PercentEncoding.encode(url)))
                #expect(refused.status == 400)
                #expect(!String(decoding: refused.body, as: UTF8.self).contains("request="))
            }
        }
    }
}
