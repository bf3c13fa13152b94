import PasskeyKit

/// What `passkey login --web` and `passkey signup --web` report.
struct WebLoginOutcome: CommandOutput {
    let session: SessionReport
    /// `login` or `signup`.
    let screen: String
    /// How the tenant's page was shown.
    let browser: String

    init(_ result: WebLogInResult, signUp: Bool, browser: WebLoginOptions.Browser, showTokens: Bool) {
        session = SessionReport(user: result.user, credentials: result.credentials, showTokens: showTokens)
        screen = signUp ? "signup" : "login"
        self.browser = browser.rawValue
    }

    var text: String {
        let verb = screen == "signup" ? "Signed up" : "Logged in"
        return "\(verb) \(session.user.text) on the tenant's login page (\(browser) browser); the ID token is valid.\n"
            + session.details
    }
}
