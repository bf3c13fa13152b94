import Foundation
import PasskeyBrowser
import TestSupport
import Testing
import WebAuthn

/// `passkey signup --web` and `login --web` as a user runs them against `passkey tenant serve`:
/// the tenant's login page in a headless Chromium and Firefox whose passkey requests the store
/// answers through the page bridge, the redirect heard on 127.0.0.1, the code exchanged, the ID
/// token validated; then the same session and the same passkey through the native commands.
///
/// `make test` installs both browsers (Debian `chromium`, `firefox-esr`); elsewhere the suite
/// runs only where they are.
@Suite(.serialized, .enabled(if: InstalledBrowsers.chromiumAndFirefox))
struct WebLoginEndToEndTests {
    @Test func signUpAndLogInOnTheTenantsPageThenUseTheSession() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant()

        // The start line's URL is on 127.0.0.1; the tenant sends the browser to localhost, the RP ID.
        let signup = try await terminal.passkey(
            "signup", "--web", "--browser", "chromium", "--headless", "--email", "ada@example.com", "--json")
        #expect(signup.status == 0, "\(signup)")
        let signedUp = try #require(try signup.json()["session"]?["user"]?["sub"]?.stringValue)
        #expect(try signup.json()["screen"]?.stringValue == "signup")
        #expect(terminal.storeFiles().count == 1)

        let login = try await terminal.passkey("login", "--web", "--browser", "firefox", "--headless")
        #expect(login.status == 0, "\(login)")
        #expect(login.stdout.hasPrefix("Logged in ada@example.com (\(signedUp)) on the tenant's login page"))
        #expect(!login.stdout.contains("eyJ"), "no token without --show-tokens")

        // The web session is the CLI's session: whoami, token and api work on it.
        let whoami = try await terminal.passkey("whoami", "--json")
        #expect(try whoami.json()["sub"]?.stringValue == signedUp)
        let token = try await terminal.passkey("token")
        #expect(token.status == 0 && token.stdout.hasPrefix("eyJ"))
        let events = try await terminal.passkey(
            "api", "--audience", "https://localhost/api/", "--scope", "read:events", "GET", tenant.url + "/api/events")
        #expect(events.status == 0 && events.stdout.contains(signedUp), "\(events)")

        // The passkey made on the page (origin http://localhost:PORT) logs in natively too.
        let native = try await terminal.passkey("login")
        #expect(native.stdout.hasPrefix("Logged in as ada@example.com"), "\(native)")

        // A login the page cannot complete in time fails as such, and keeps the session.
        let unknown = try await terminal.passkey(
            "login", "--web", "--browser", "chromium", "--headless", "--web-timeout", "3", "--user",
            "nobody@example.com")
        #expect(unknown.status == 1, "\(unknown)")
        #expect(unknown.stderr.hasPrefix("login failed: "), "\(unknown)")
        #expect(try await terminal.passkey("whoami", "--json").json()["sub"]?.stringValue == signedUp)

        let logout = try await terminal.passkey("logout", "--revoke")
        #expect(logout.status == 0, "\(logout)")
        await tenant.stop()
    }

    @Test func optionsThatGoWithWebAreRefusedWithoutIt() async throws {
        let terminal = try Terminal()
        for arguments in [
            ["login", "--browser", "chromium"], ["login", "--headless"], ["login", "--web", "--headless"],
            ["signup", "--web", "--email", "a@example.com", "--phone", "+15555550100"],
            ["login", "--web", "--web-timeout", "0"],
        ] {
            let result = try await ChildProcess.run(
                CLIProcess.executable, arguments, environment: .exactly(terminal.environment))
            #expect(result.status == 64, "\(arguments): \(result)")
        }
    }
}

/// Whether the browsers the web login tests start are on `PATH`.
enum InstalledBrowsers {
    static var chromiumAndFirefox: Bool { installed(.chromium, .firefox) }
    static var chromium: Bool { installed(.chromium) }

    private static func installed(_ engines: BrowserEngine...) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        return engines.allSatisfy { (try? $0.locate(environment: environment)) != nil }
    }
}
