import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey login --otp` (issue 41) through the built binary against the built `passkey tenant
/// serve --test-outbox`: a code by email and by SMS read from the outbox, the session kept as
/// every login keeps it, a code read from standard input, and the refusals.
@Suite(.serialized) struct OTPLoginEndToEndTests {
    @Test func aCodeFromTheOutboxLogsInAndKeepsTheSession() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant(arguments: ["--test-outbox"])

        let email = try await terminal.passkey("login", "--otp", "--email", "ada@example.com", "--code-from-outbox")
        #expect(email.status == 0, "\(email)")
        #expect(email.stdout.hasPrefix("Logged in as ada@example.com (email|"), "\(email)")
        #expect(email.stdout.contains("with a one-time code (connection email)"))
        let whoami = try await terminal.passkey("whoami", "--json")
        #expect(try whoami.json()["sub"]?.stringValue?.hasPrefix("email|") == true, "\(whoami)")
        #expect(try await terminal.passkey("token").stdout.hasPrefix("eyJ"))

        let sms = try await terminal.passkey(
            "login", "--otp", "--phone", "+15555550100", "--code-from-outbox", "--json")
        #expect(sms.status == 0, "\(sms)")
        let session = try #require(try sms.json()["session"]?.objectValue)
        #expect(session["user"]?["sub"]?.stringValue?.hasPrefix("sms|") == true, "\(sms)")

        // The code from standard input: a wrong one is refused in Auth0's words.
        let wrong = try await ChildProcess.run(
            CLIProcess.executable, ["login", "--otp", "--email", "ada@example.com"],
            environment: .exactly(terminal.environment), input: Array("000000\n".utf8))
        #expect(wrong.status == 1, "\(wrong)")
        #expect(wrong.stderr.contains("invalid_grant") && wrong.stderr.contains("Wrong email or verification code"))
        await tenant.stop()
    }

    @Test func theOutboxAndTheAddressAreRequired() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant()
        let noOutbox = try await terminal.passkey("login", "--otp", "--email", "ada@example.com", "--code-from-outbox")
        #expect(noOutbox.status == 1 && noOutbox.stderr.contains("--test-outbox"), "\(noOutbox)")
        let noAddress = try await terminal.passkey("login", "--otp")
        #expect(noAddress.status != 0 && noAddress.stderr.contains("give --email or --phone"), "\(noAddress)")
        let stray = try await terminal.passkey("login", "--phone", "+15550100", "--code-from-outbox")
        #expect(stray.status != 0 && stray.stderr.contains("go with --otp"), "\(stray)")
        let emailAlone = try await terminal.passkey("login", "--email", "ada@example.com")
        #expect(emailAlone.status != 0 && emailAlone.stderr.contains("go with --password-stdin"), "\(emailAlone)")
        await tenant.stop()
    }
}
