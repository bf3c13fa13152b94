import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey user metadata get|set` and `passkey link` against `passkey tenant serve` (issue 41):
/// the signed-in user's own `user_metadata` with a current-user token, and a second account
/// (another sessions directory and phone) linked, then logging in as the first with its passkey.
@Suite(.serialized) struct UsersEndToEndTests {
    @Test func metadataIsSetAndReadBackThenASecondAccountIsLinked() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant()
        try await terminal.signUp("ada@example.com")
        let set = try await terminal.passkey("user", "metadata", "set", "theme=dark", #"prefs={"a":1}"#, "n=3")
        #expect(set.status == 0, "\(set)")
        #expect(set.stdout == "n=3\nprefs={\"a\":1}\ntheme=dark\n", "\(set)")
        let removed = try await terminal.passkey("user", "metadata", "set", "n=null", "--json")
        #expect(
            try removed.json()["user_metadata"]
                == .object(["theme": .string("dark"), "prefs": .object(["a": .number(1)])]))
        let read = try await terminal.passkey("user", "metadata", "get")
        #expect(read.status == 0 && read.stdout == "prefs={\"a\":1}\ntheme=dark\n", "\(read)")
        let bad = try await terminal.passkey("user", "metadata", "set", "=x")
        #expect(bad.status != 0)

        let bob = ["--sessions", terminal.home + "/bob-sessions", "--store", terminal.home + "/bob-phone"]
        let bobSignup = try await terminal.passkey(["signup", "--email", "bob@example.com"] + bob)
        #expect(bobSignup.status == 0, "\(bobSignup)")
        let linked = try await terminal.passkey("link", "--with-sessions", terminal.home + "/bob-sessions", "--json")
        #expect(linked.status == 0, "\(linked)")
        let identities = try #require(try linked.json()["identities"]?.arrayValue)
        #expect(identities.count == 2)
        #expect(identities.last?["email"] == .string("bob@example.com"))

        let asBob = ["--sessions", terminal.home + "/third-sessions", "--store", terminal.home + "/bob-phone"]
        let login = try await terminal.passkey(["login"] + asBob)
        #expect(login.status == 0, "\(login)")
        let whoami = try await terminal.passkey(["whoami"] + asBob)
        #expect(whoami.status == 0 && whoami.stdout.contains("ada@example.com"), "\(whoami)")

        let bobID = try #require(identities.last?["user_id"]?.stringValue)
        let unlinked = try await terminal.passkey("link", "--unlink", "auth0/\(bobID)")
        #expect(unlinked.status == 0 && !unlinked.stdout.contains(bobID), "\(unlinked)")
        await tenant.stop()
    }
}
