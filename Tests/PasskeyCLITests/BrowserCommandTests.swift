import ArgumentParser
import PasskeyAuthenticator
import PasskeyBrowser
import Testing

@testable import passkey

/// `passkey browser`'s arguments and its start line (the run itself: Tests/Browser/test_passkey_browser.py).
@Suite struct BrowserCommandTests {
    @Test func parsesEveryOption() throws {
        let command = try #require(
            try Passkey.parseAsRoot([
                "browser", "--engine", "firefox", "--headless", "--store", "/tmp/s", "--profile", "security-key",
                "https://example.com/login",
            ]) as? Passkey.Browser)
        #expect(command.engine == .firefox)
        #expect(command.headless)
        #expect(command.store.store == "/tmp/s")
        #expect(command.profile.name == "security-key")
        #expect(command.url == "https://example.com/login")
    }

    @Test func defaultsToAWindowedChromiumWithThePlatformProfile() throws {
        let command = try #require(try Passkey.parseAsRoot(["browser", "http://localhost:5000/"]) as? Passkey.Browser)
        #expect(command.engine == .chromium)
        #expect(!command.headless)
        #expect(command.store.store == nil)
        #expect(command.profile.name == "platform")
    }

    @Test(arguments: [
        ["browser"], ["browser", "example.com"], ["browser", "file:///etc/passwd"],
        ["browser", "--engine", "webkit", "https://example.com"],
        ["browser", "--profile", "nope", "https://a.example"],
    ])
    func refusesWhatItCannotOpen(arguments: [String]) {
        #expect(throws: (any Error).self) { try Passkey.parseAsRoot(arguments) }
    }

    @Test func theStartLineSaysHowToStop() throws {
        let windowed = try #require(
            try Passkey.parseAsRoot(["browser", "https://example.com/"]) as? Passkey.Browser)
        #expect(
            windowed.startLine(store: "/s")
                == "passkey browser: chromium at https://example.com/ with the passkeys of /s; "
                + "close the browser or press Ctrl-C to stop")
        let headless = try #require(
            try Passkey.parseAsRoot(["browser", "--headless", "--engine", "firefox", "https://example.com/"])
                as? Passkey.Browser)
        let line = headless.startLine(store: "/s")
        #expect(line.hasPrefix("passkey browser: firefox at https://example.com/ with the passkeys of /s; "))
        #expect(line.contains("SIGTERM"))
        #expect(!line.contains("\n"))
    }
}
