import Testing

@testable import PasskeyBrowser

/// Firefox's command line, profile preferences, and the line that tells where its remote agent is.
@Suite struct FirefoxRemoteAgentTests {
    private let launch = BrowserLaunch(
        engine: .firefox, executable: "/usr/bin/firefox-esr", url: "https://example.com/", script: "1;",
        headless: true, loopbackServices: ["127.0.0.1:4711", "127.0.0.1:4712"])

    @Test func theAnnouncementGivesTheSessionURL() {
        #expect(
            FirefoxRemoteAgent.sessionURL(announcedBy: "WebDriver BiDi listening on ws://127.0.0.1:45009")
                == "ws://127.0.0.1:45009/session")
        #expect(
            FirefoxRemoteAgent.sessionURL(announcedBy: "WebDriver BiDi listening on ws://127.0.0.1:45009/ ")
                == "ws://127.0.0.1:45009/session")
        #expect(FirefoxRemoteAgent.sessionURL(announcedBy: "*** You are running in headless mode.") == nil)
        #expect(FirefoxRemoteAgent.sessionURL(announcedBy: "WebDriver BiDi listening on http://x") == nil)
    }

    @Test func theCommandLineAsksForAFreePortAndTheTemporaryProfile() {
        #expect(
            FirefoxRemoteAgent.arguments(launch, profileDirectory: "/tmp/p") == [
                "--remote-debugging-port=0", "--remote-allow-origins=ws://127.0.0.1", "--profile", "/tmp/p",
                "--no-remote", "--headless", "about:blank",
            ])
        var windowed = launch
        windowed.headless = false
        #expect(!FirefoxRemoteAgent.arguments(windowed, profileDirectory: "/tmp/p").contains("--headless"))
    }

    @Test func theLoopbackServicesArePublicForLocalNetworkAccess() {
        let preferences = FirefoxRemoteAgent.userPreferences(launch)
        #expect(
            preferences.contains(
                #"user_pref("network.lna.address_space.public.override", "127.0.0.1:4711,127.0.0.1:4712");"#))
        var none = launch
        none.loopbackServices = []
        #expect(!FirefoxRemoteAgent.userPreferences(none).contains("network.lna"))
    }
}
