import PasskeyKit

/// What `passkey login --web` and `passkey signup --web` report.
struct WebLoginOutcome: CommandOutput {
    let session: SessionReport
    /// `login` or `signup`.
    let screen: String
    /// How the tenant's page was shown: `none` when the CLI followed the login itself.
    let browser: String
    /// The connection asked for (`--connection`), an upstream provider's for issue 40's flow.
    let connection: String?

    init(
        _ result: WebLogInResult, signUp: Bool, browser: WebLoginOptions.Browser, connection: String?,
        showTokens: Bool
    ) {
        session = SessionReport(user: result.user, credentials: result.credentials, showTokens: showTokens)
        screen = signUp ? "signup" : "login"
        self.browser = browser.rawValue
        self.connection = connection
    }

    var text: String {
        let verb = screen == "signup" ? "Signed up" : "Logged in"
        let through = connection.map { " through connection \($0)" } ?? ""
        let place =
            browser == WebLoginOptions.Browser.noBrowser.rawValue
            ? "on the web with no browser\(through)" : "on the tenant's login page (\(browser) browser)\(through)"
        return "\(verb) \(session.user.text) \(place); the ID token is valid.\n" + session.details
    }
}
