import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey methods rename` and `passkey methods delete` against `passkey tenant serve`
/// (auth0-passkey-api.md §19.1, §5.5), next to the bare `passkey methods` that lists.
@Suite(.serialized) struct MethodsEndToEndTests {
    @Test func renameThenDeleteAPasskey() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant()
        try await terminal.signUp("ada@example.com")
        let listed = try await terminal.passkey("methods", "--type", "passkey", "--json")
        #expect(listed.status == 0, "\(listed)")
        let method = try #require(try listed.json()["methods"]?.arrayValue?.first)
        let id = try #require(method["id"]?.stringValue)
        #expect(method["name"] == nil)

        let renamed = try await terminal.passkey("methods", "rename", id, "Work laptop")
        #expect(renamed.status == 0, "\(renamed)")
        #expect(renamed.stdout == "Renamed \(id) to \"Work laptop\".\n", "\(renamed)")
        let named = try await terminal.passkey("methods")
        #expect(named.status == 0 && named.stdout.hasPrefix("passkey  \(id)  \"Work laptop\"  key "), "\(named)")
        let asJSON = try await terminal.passkey("methods", "list", "--json")
        #expect(try asJSON.json()["methods"]?.arrayValue?.first?["name"]?.stringValue == "Work laptop")

        let tooLong = try await terminal.passkey("methods", "rename", id, String(repeating: "n", count: 129), "--json")
        #expect(tooLong.status == 1, "\(tooLong)")
        #expect(try tooLong.json()["error"]?["status"] == .number(400), "\(tooLong)")
        let stranger = try await terminal.passkey("methods", "delete", "passkey|dev_nope")
        #expect(stranger.status == 1 && stranger.stderr.hasPrefix("methods delete failed: "), "\(stranger)")
        #expect(stranger.stderr.contains("404"), "\(stranger)")

        let deleted = try await terminal.passkey("methods", "delete", id, "--json")
        #expect(deleted.status == 0, "\(deleted)")
        #expect(try deleted.json()["deleted"]?.stringValue == id)
        let none = try await terminal.passkey("methods")
        #expect(none.status == 0 && none.stdout == "No authentication methods.\n", "\(none)")
        await tenant.stop()
    }
}
