import Testing
import WebAuthn

@Suite struct PublicSuffixListTests {
    @Test(arguments: ["com", "co.uk", "github.io", "blogspot.com", "s3.amazonaws.com", "localhost", "b.kawasaki.jp"])
    func publicSuffixes(host: String) {
        #expect(PublicSuffixList.isPublicSuffix(host))
        #expect(PublicSuffixList.registrableDomain(host) == nil)
    }

    @Test(arguments: [
        ("example.com", "example.com"),
        ("login.example.com", "example.com"),
        ("a.b.example.co.uk", "example.co.uk"),
        ("alice.github.io", "alice.github.io"),
        ("www.alice.github.io", "alice.github.io"),
        // *.kawasaki.jp with the exception !city.kawasaki.jp
        ("a.b.kawasaki.jp", "a.b.kawasaki.jp"),
        ("www.city.kawasaki.jp", "city.kawasaki.jp"),
    ])
    func registrableDomains(host: String, registrable: String) {
        #expect(!PublicSuffixList.isPublicSuffix(host))
        #expect(PublicSuffixList.registrableDomain(host) == registrable)
    }
}

@Suite struct WebOriginRPIDTests {
    @Test(arguments: [
        ("https://login.example.com", "example.com"),
        ("https://login.example.com", "login.example.com"),
        ("https://login.example.com", "LOGIN.Example.COM"),
        ("https://a.b.login.example.com", "login.example.com"),
        ("https://example.com", "example.com"),
        ("https://example.com:8443", "example.com"),
        ("https://www.example.co.uk", "example.co.uk"),
        ("https://www.alice.github.io", "alice.github.io"),
        ("https://www.city.kawasaki.jp", "city.kawasaki.jp"),
        ("http://localhost:8080", "localhost"),
        ("https://127.0.0.1", "127.0.0.1"),
        ("https://[::1]:8443", "::1"),
        // Equality is enough (HTML's "or is equal to"), even for a host that is a public suffix.
        ("https://github.io", "github.io"),
    ])
    func allowed(origin: String, rpID: String) throws {
        #expect(try WebOrigin(origin).mayUse(rpID: rpID))
    }

    @Test(arguments: [
        // Public suffixes, and anything above the registrable domain.
        ("https://login.example.com", "com"),
        ("https://www.example.co.uk", "co.uk"),
        ("https://www.example.co.uk", "uk"),
        ("https://alice.github.io", "github.io"),
        ("https://alice.github.io", "io"),
        ("https://foo.s3.amazonaws.com", "amazonaws.com"),
        ("https://a.b.kawasaki.jp", "b.kawasaki.jp"),
        ("https://a.b.kawasaki.jp", "kawasaki.jp"),
        ("https://app.localhost", "localhost"),
        // Not on a label boundary, or not a suffix at all.
        ("https://example.com", "xample.com"),
        ("https://login.example.com", "ogin.example.com"),
        ("https://example.com", "www.example.com"),
        ("https://example.com", "example.org"),
        ("https://example.com", "evil-example.com"),
        // IP addresses match only themselves.
        ("https://127.0.0.1", "0.0.1"),
        ("https://127.0.0.1", "0.1"),
        ("https://127.0.0.1", "127.0.0.2"),
        ("https://10.1.2.3", "1.2.3"),
        // Empty labels: no trailing, leading or doubled dots.
        ("https://example.com", "example.com."),
        ("https://login.example.com", ".example.com"),
        ("https://login.example.com", "example..com"),
        ("https://example.com.", "example.com."),
        ("https://example.com.", "example.com"),
        ("https://example.com", ""),
        ("https://example.com", "."),
    ])
    func refused(origin: String, rpID: String) throws {
        #expect(try !WebOrigin(origin).mayUse(rpID: rpID))
    }
}
