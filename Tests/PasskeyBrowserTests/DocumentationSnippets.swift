import PasskeyBrowser

// The code samples of PasskeyBrowser's DocC articles, between snippet markers, compiled
// (SnippetTests checks that each sample in the documents is one of these). Run in full, headless,
// by PageScriptTests.

/// InstallingAScriptInEveryFrame: opening Firefox with a script.
func articleOpeningFirefox(environment: [String: String], script: String) async throws {
    // snippet.begin
    let launch = BrowserLaunch(
        engine: .firefox, executable: try BrowserEngine.firefox.locate(environment: environment),
        url: "https://example.com/", script: script, headless: true, loopbackServices: ["127.0.0.1:8080"])
    try await launch.run()  // until the browser closes, or until this task is cancelled
    // snippet.end
}
