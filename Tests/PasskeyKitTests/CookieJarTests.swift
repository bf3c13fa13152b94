import PasskeyKit
import Testing

/// The user agent's cookie jar: RFC 6265's storage and `Cookie` header for the cookies the
/// tenants set, kept per host and port.
@Suite struct CookieJarTests {
    @Test func aCookieGoesBackToItsHostPortAndPath() {
        let jar = CookieJar()
        jar.store(
            ["passkey_upstream=st4te; Path=/login/callback; HttpOnly; SameSite=Lax", "passkey_session=a; Path=/"],
            from: "http://127.0.0.1:4000/authorize?client_id=x")
        #expect(
            jar.header(for: "http://127.0.0.1:4000/login/callback?code=c")
                == "passkey_upstream=st4te; passkey_session=a")
        #expect(jar.header(for: "http://127.0.0.1:4000/login/callbackx") == "passkey_session=a")
        #expect(jar.header(for: "http://127.0.0.1:4000/authorize") == "passkey_session=a")
        // Another port (another tenant on the same host) and another host get none.
        #expect(jar.header(for: "http://127.0.0.1:4001/login/callback") == nil)
        #expect(jar.header(for: "http://localhost:4000/login/callback") == nil)
    }

    @Test func theDefaultPathIsTheRequestsDirectory() {
        let jar = CookieJar()
        jar.store(["passkey_tx=t1"], from: "https://localhost:8443/u/login?state=x")
        #expect(jar.header(for: "https://localhost:8443/u/passkey/options") == "passkey_tx=t1")
        #expect(jar.header(for: "https://localhost:8443/authorize") == nil)
    }

    @Test func aSecureCookieGoesOverHTTPSOnly() {
        let jar = CookieJar()
        jar.store(
            ["passkey_session=b; Path=/; Secure; SameSite=None"], from: "https://localhost:8443/embedded/continue")
        #expect(jar.header(for: "https://localhost:8443/authorize") == "passkey_session=b")
        #expect(jar.header(for: "http://localhost:8443/authorize") == nil)
    }

    @Test func aLaterCookieReplacesAndMaxAgeZeroDeletes() {
        let jar = CookieJar()
        let url = "http://127.0.0.1:4000/"
        jar.store(["passkey_session=a; Path=/", "other=1; Path=/"], from: url)
        jar.store(["passkey_session=b; Path=/"], from: url)
        #expect(
            jar.header(for: url) == "passkey_session=b; other=1" || jar.header(for: url) == "other=1; passkey_session=b"
        )
        jar.store(["passkey_session=; Path=/; Max-Age=0"], from: url)
        #expect(jar.header(for: url) == "other=1")
    }

    @Test func longerPathsComeFirst() {
        let jar = CookieJar()
        jar.store(["a=1; Path=/", "b=2; Path=/u/passkey"], from: "http://127.0.0.1:4000/")
        #expect(jar.header(for: "http://127.0.0.1:4000/u/passkey/verify") == "b=2; a=1")
    }

    @Test func malformedLinesAreIgnored() {
        let jar = CookieJar()
        jar.store(["novalue", "=nameless", "ok=1"], from: "http://127.0.0.1:4000/")
        #expect(jar.header(for: "http://127.0.0.1:4000/") == "ok=1")
        jar.store(["x=1"], from: "not a url")
        #expect(jar.header(for: "not a url") == nil)
    }
}
