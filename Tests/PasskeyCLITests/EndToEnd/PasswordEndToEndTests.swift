import Foundation
import TestSupport
import Testing
import WebAuthn

/// Issue 41's migration story as a user types it against `passkey tenant serve`: `signup
/// --password-stdin`, `login --password-stdin`, `enroll` into the session's user, `login` with
/// the passkey (and on the login page in a headless Chromium where one is installed), then the
/// password again; then `user metadata set|get`, a passwordless account (`login --otp`, the code
/// from the outbox, in a second sessions directory) joined by `link --with-sessions`, after which
/// the code, the password and the passkey all log the first user in; the password never an
/// argument, never printed.
@Suite(.serialized) struct PasswordEndToEndTests {
    static let password = "Correct-Horse-9-staple"

    @Test func aPasswordUserEnrollsAPasskeyAndLogsInWithEither() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant(arguments: ["--test-outbox"])

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

        let set = try await terminal.passkey("user", "metadata", "set", "theme=dark")
        #expect(set.status == 0 && set.stdout == "theme=dark\n", "\(set)")
        let read = try await terminal.passkey("user", "metadata", "get")
        #expect(read.status == 0 && read.stdout == "theme=dark\n", "\(read)")

        // A second identity: a passwordless account in a sessions directory of its own.
        let byCode = ["login", "--otp", "--email", "ada@example.com", "--code-from-outbox", "--sessions"]
        let mail = try await terminal.passkey(byCode + [terminal.home + "/mail-sessions"])
        #expect(mail.status == 0 && mail.stdout.hasPrefix("Logged in as ada@example.com (email|"), "\(mail)")
        let linked = try await terminal.passkey("link", "--with-sessions", terminal.home + "/mail-sessions", "--json")
        #expect(linked.status == 0, "\(linked)")
        let identities = try #require(try linked.json()["identities"]?.arrayValue)
        #expect(identities.map { $0["provider"]?.stringValue } == ["auth0", "email"], "\(linked)")

        let linkedByCode = try await terminal.passkey(byCode + [terminal.home + "/linked-sessions"])
        #expect(linkedByCode.status == 0 && linkedByCode.stdout.contains("(\(sub))"), "\(linkedByCode)")
        let linkedMetadata = try await terminal.passkey(
            "user", "metadata", "get", "--sessions", terminal.home + "/linked-sessions")
        #expect(linkedMetadata.stdout == "theme=dark\n", "\(linkedMetadata)")
        let stillByPassword = try await terminal.passkey(
            "login", "--password-stdin", "--email", "ada@example.com", input: Self.password)
        #expect(stillByPassword.status == 0 && stillByPassword.stdout.contains(sub), "\(stillByPassword)")
        let stillByPasskey = try await terminal.passkey("login")
        #expect(stillByPasskey.stdout.hasPrefix("Logged in as ada@example.com (\(sub)) with passkey "))

        for run in [signup, login, enroll, byPasskey, again, stillByPassword] {
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
