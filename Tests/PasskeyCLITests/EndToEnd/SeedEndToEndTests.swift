import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey seed` against `passkey tenant serve` (auth0-passkey-api.md §15): users who already
/// hold a passkey of the store, then `passkey login` with it; the m2m secret only from the
/// environment or a file, never printed.
@Suite(.serialized) struct SeedEndToEndTests {
    /// A terminal pointed at a new tenant, and the m2m client ID and secret of the tenant's
    /// `--json` start line.
    private func seeding() async throws -> (Terminal, CLITenant, m2mID: String, secret: String) {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant()
        let line = try JSONValue(json: Array(tenant.process.startOutput.utf8))
        return (
            terminal, tenant, try #require(line["m2m_client_id"]?.stringValue),
            try #require(line["m2m_client_secret"]?.stringValue)
        )
    }

    @Test func seedThenLogIn() async throws {
        let (terminal, tenant, m2mID, secret) = try await seeding()
        terminal.environment["AUTH0_CLIENT_SECRET"] = secret
        let seeded = try await terminal.passkey(
            "seed", "--email", "ada@example.com", "--name", "Ada Lovelace", "--m2m-client-id", m2mID, "--json")
        #expect(seeded.status == 0, "\(seeded)")
        let user = try #require(try seeded.json()["users"]?.arrayValue?.first)
        #expect(user["email"]?.stringValue == "ada@example.com" && user["created"] == .bool(true))
        #expect(user["rp_id"]?.stringValue == "localhost")
        let userID = try #require(user["user_id"]?.stringValue)
        #expect(terminal.storeFiles().count == 1)
        #expect(terminal.sessionFiles().isEmpty)

        let login = try await terminal.passkey("login")
        #expect(login.status == 0, "\(login)")
        #expect(login.stdout.hasPrefix("Logged in as ada@example.com (\(userID))"), "\(login)")

        // Seeding the same user from the same store again: the store already holds the passkey.
        let again = try await terminal.passkey("seed", "--email", "ada@example.com", "--m2m-client-id", m2mID)
        #expect(again.status == 1 && again.stderr.hasPrefix("seed failed: InvalidStateError"), "\(again)")
        await tenant.stop()
    }

    /// `--count N` seeds ada+1 … ada+N; each logs in with `--user`. The secret comes from a file.
    @Test func seedSeveralFromASecretFile() async throws {
        let (terminal, tenant, m2mID, secret) = try await seeding()
        let file = terminal.home + "/m2m-secret"
        try Data((secret + "\n").utf8).write(to: URL(fileURLWithPath: file))
        terminal.environment["AUTH0_M2M_CLIENT_ID"] = m2mID
        let elsewhere = try await terminal.passkey(
            "seed", "--email", "bob@example.com", "--client-secret-file", file, "--management-audience",
            "https://elsewhere.example.com/api/v2/")
        #expect(elsewhere.status == 1 && elsewhere.stderr.hasPrefix("seed failed: "), "\(elsewhere)")
        #expect(terminal.storeFiles().isEmpty)
        let seeded = try await terminal.passkey(
            "seed", "--email", "bob@example.com", "--count", "3", "--client-secret-file", file)
        #expect(seeded.status == 0, "\(seeded)")
        let lines = seeded.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        for index in 1...3 {
            #expect(lines[index - 1].hasPrefix("Seeded bob+\(index)@example.com (auth0|"), "\(seeded)")
        }
        #expect(terminal.storeFiles().count == 3)
        let login = try await terminal.passkey("login", "--user", "bob+2@example.com")
        #expect(login.status == 0 && login.stdout.hasPrefix("Logged in as bob+2@example.com"), "\(login)")
        await tenant.stop()
    }

    /// The secret is never a flag's value, and `-v` shows the trace with the secret and the
    /// tokens redacted.
    @Test func theSecretIsNeitherAFlagNorPrinted() async throws {
        let (terminal, tenant, m2mID, secret) = try await seeding()
        // Attached with `=`: a random secret that starts with `-h` would otherwise read as `-h`.
        let asFlag = try await terminal.passkey(
            "seed", "--email", "ada@example.com", "--m2m-client-id", m2mID, "--client-secret=\(secret)")
        #expect(asFlag.status == 64 && asFlag.stderr.contains("--client-secret"), "\(asFlag)")
        let none = try await terminal.passkey("seed", "--email", "ada@example.com", "--m2m-client-id", m2mID)
        #expect(none.status == 1 && none.stderr.hasPrefix("seed failed: no_client_secret"), "\(none)")
        #expect(none.stderr.contains("AUTH0_CLIENT_SECRET"))

        terminal.environment["AUTH0_CLIENT_SECRET"] = "not-the-secret"
        let wrong = try await terminal.passkey("seed", "--email", "ada@example.com", "--m2m-client-id", m2mID)
        #expect(wrong.status == 1 && wrong.stderr.contains("--m2m-client-id"), "\(wrong)")
        #expect(!wrong.stderr.contains("not-the-secret"))
        #expect(terminal.storeFiles().isEmpty)

        terminal.environment["AUTH0_CLIENT_SECRET"] = secret
        let traced = try await terminal.passkey("seed", "--email", "ada@example.com", "--m2m-client-id", m2mID, "-v")
        #expect(traced.status == 0, "\(traced)")
        #expect(traced.stderr.contains(#""client_secret":"<redacted>""#), "\(traced)")
        #expect(traced.stderr.contains("Authorization: <redacted>") && traced.stderr.contains("/api/v2/users"))
        #expect(!traced.stderr.contains(secret) && !traced.stdout.contains(secret))
        #expect(traced.stderr.contains(#""access_token":"<redacted>""#))
        #expect(!traced.stderr.contains("eyJhbGci") && !traced.stderr.contains("eyJraWQi"), "a token reached the trace")
        await tenant.stop()
    }
}
