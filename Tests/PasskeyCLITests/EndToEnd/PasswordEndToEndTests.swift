import Foundation
import TestSupport
import Testing
import WebAuthn

/// Issue 41's migration story as a user types it against `passkey tenant serve`: `signup
/// --password-stdin`, `login --password-stdin`, `enroll` into the session's user, `login` with
/// the passkey (and on the login page in a headless Chromium where one is installed), then the
/// password again; the password never an argument, never printed.
@Suite(.serialized) struct PasswordEndToEndTests {
    static let password = "Correct-Horse-9-staple"

    @Test func aPasswordUserEnrollsAPasskeyAndLogsInWithEither() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant()

        let signup = try await terminal.passkey(
            "signup", "--email", "ada@example.com", "--password-stdin", "--json", input: Self.password + "\n")
        #expect(signup.status == 0, "\(signup)")
        let sub = try #require(try signup.json()["session"]?["user"]?["sub"]?.stringValue)
        let signedUp = try signup.json()["signed_up"]
        #expect(sub.hasPrefix("auth0|") && signedUp == .bool(true))
        #expect(terminal.storeFiles().isEmpty, "a password signup makes no passkey")

        let login = try await terminal.passkey(
            "login", "--password-stdin", "--email", "ada@example.com", "--connection",
            "Username-Password-Authentication", input: Self.password)
        #expect(login.status == 0, "\(login)")
        #expect(login.stdout.hasPrefix("Logged in as ada@example.com (\(sub)) with a password."), "\(login)")

        let enroll = try await terminal.passkey("enroll", "--json")
        #expect(enroll.status == 0, "\(enroll)")
        #expect(terminal.storeFiles().count == 1)

        let byPasskey = try await terminal.passkey("login")
        #expect(byPasskey.stdout.hasPrefix("Logged in as ada@example.com (\(sub)) with passkey "), "\(byPasskey)")

        if InstalledBrowsers.chromium {
            let onThePage = try await terminal.passkey("login", "--web", "--browser", "chromium", "--headless")
            #expect(onThePage.stdout.hasPrefix("Logged in ada@example.com (\(sub)) on the tenant's login page"))
        }

        let again = try await terminal.passkey(
            "login", "--password-stdin", "--email", "ada@example.com", input: Self.password)
        #expect(again.status == 0 && again.stdout.contains(sub), "\(again)")
        // Issue 41 `users`: `passkey user metadata get|set` and `passkey link` go on from this session.

        for run in [signup, login, enroll, byPasskey, again] {
            #expect(!run.stdout.contains(Self.password) && !run.stderr.contains(Self.password))
        }
        await tenant.stop()
    }

    @Test func refusalsAreOneLineAndKeepThePasswordOut() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant()
        let weak = try await terminal.passkey(
            "signup", "--email", "ada@example.com", "--password-stdin", input: "short\n")
        #expect(weak.status == 1 && weak.stderr.hasPrefix("signup failed: invalid_password"), "\(weak)")
        try await terminal.passkey("signup", "--email", "ada@example.com", "--password-stdin", input: Self.password)
        let wrong = try await terminal.passkey(
            "login", "--password-stdin", "--email", "ada@example.com", "-v", input: "Wrong-Horse-9-staple\n")
        #expect(wrong.status == 1 && wrong.stderr.contains("login failed: invalid_grant"), "\(wrong)")
        // The -v trace shows the request body, the password redacted.
        #expect(wrong.stderr.contains(#""password":"<redacted>""#), "\(wrong)")
        #expect(!wrong.stderr.contains("Wrong-Horse-9-staple"))
        let empty = try await terminal.passkey("login", "--password-stdin", "--email", "ada@example.com", input: "")
        #expect(empty.status != 0 && empty.stderr.contains("standard input"), "\(empty)")
        await tenant.stop()
    }

    @Test func passwordOptionsGoTogether() async throws {
        let terminal = try Terminal()
        for arguments in [
            ["login", "--password-stdin"],
            ["login", "--password-stdin", "--email", "a@example.com", "--username", "a"],
            ["login", "--password-stdin", "--email", "a@example.com", "--user", "a"],
            ["login", "--email", "a@example.com"],
            ["signup", "--password-stdin", "--username", "a"],
            ["signup", "--password-stdin", "--email", "a@example.com", "--web"],
        ] {
            let run = try await ChildProcess.run(
                CLIProcess.executable, arguments, environment: .exactly(terminal.environment))
            #expect(run.status == 64, "\(arguments): \(run)")
        }
    }
}
