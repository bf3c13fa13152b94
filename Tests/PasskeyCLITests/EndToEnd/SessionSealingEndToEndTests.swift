import Foundation
import TestSupport
import Testing
import WebAuthn

/// Sessions at rest through the built `passkey` (issue 17): no session file holds a token's
/// bytes, the key file lives apart from them, two processes renewing at once leave one valid
/// session, and a session sealed under a passphrase, and required to ask for it, opens only with it.
@Suite(.serialized) struct SessionSealingEndToEndTests {
    /// The tokens of a `--json` outcome's session.
    func tokens(_ result: ProcessResult) throws -> [String] {
        let session = try #require(try result.json()["session"]?.objectValue)
        let tokens = try #require(session["tokens"]?.objectValue)
        return ["access_token", "id_token", "refresh_token"].compactMap { tokens[$0]?.stringValue }
    }

    @Test func noSessionFileHoldsATokenAndTheKeyFileIsApart() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant()
        let signup = try await terminal.signUp("ada@example.com", "--json")
        let login = try await terminal.passkey("login", "--json")
        var secrets = try tokens(signup) + (try tokens(login))
        let api = try await terminal.passkey("token", "--audience", "https://localhost/api/", "--scope", "read:events")
        #expect(api.status == 0, "\(api)")
        secrets.append(api.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(secrets.count == 7 && secrets.allSatisfy { $0.count >= 16 })

        let files = terminal.sessionFiles()
        #expect(files.count == 2, "\(files.keys.sorted())")
        for (name, bytes) in files {
            #expect(name.hasSuffix(".sealed"), "\(name)")
            for secret in secrets {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "a token in \(name)")
            }
        }
        let keyFile = terminal.home + "/.config/auth0-passkeys/storage.key"
        #expect(FileManager.default.contents(atPath: keyFile)?.count == 32)
        #expect(try permissions(keyFile) == 0o600)
        await tenant.stop()
    }

    @Test func twoProcessesRenewingAtOnceLeaveOneValidSession() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant()
        #expect(try await terminal.passkey("signup", "--email", "ada@example.com").status == 0)
        // A scope other than the session's makes each process renew, with the one refresh token:
        // spent twice, the tenant would revoke its family (rotation with reuse detection).
        for round in 0..<3 {
            let scope = round % 2 == 0 ? "openid email offline_access" : "openid profile email offline_access"
            let environment = terminal.environment
            async let first = ChildProcess.run(
                CLIProcess.executable, ["token", "--scope", scope], environment: .exactly(environment))
            async let second = ChildProcess.run(
                CLIProcess.executable, ["token", "--scope", scope], environment: .exactly(environment))
            let (one, two) = try await (first, second)
            #expect(one.status == 0 && two.status == 0, "\(one)\n\(two)")
        }
        let after = try await terminal.passkey("whoami", "--refresh")
        #expect(after.status == 0 && after.stdout.contains("ada@example.com"), "\(after)")
        await tenant.stop()
    }

    @Test func aPassphraseSessionOpensOnlyWithItsPassphrase() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant()
        terminal.environment["PASSKEY_PASSPHRASE"] = "a passphrase for the store and the session"
        try await terminal.signUp("ada@example.com", "--require-passphrase")
        let sessions = terminal.sessionFiles()
        #expect(sessions.keys.contains { $0.hasSuffix("/.sealing") }, "\(sessions.keys.sorted())")
        #expect(!FileManager.default.fileExists(atPath: terminal.home + "/.config/auth0-passkeys/storage.key"))
        for bytes in sessions.values {
            #expect(bytes.range(of: Data("a passphrase".utf8)) == nil)
        }
        #expect(try await terminal.passkey("token").status == 0)

        terminal.environment["PASSKEY_PASSPHRASE"] = "another passphrase"
        let wrong = try await terminal.passkey("token")
        #expect(
            wrong.status == 1 && wrong.stderr.contains("readFailed") && wrong.stderr.contains("wrongKey"), "\(wrong)")
        #expect(!wrong.stderr.contains("another passphrase"))
        terminal.environment["PASSKEY_PASSPHRASE"] = nil
        let none = try await terminal.passkey("token")
        #expect(none.status == 1 && none.stderr.contains("PASSKEY_PASSPHRASE"), "\(none)")
        #expect(terminal.sessionFiles() == sessions, "nothing changed")
        await tenant.stop()
    }
}
