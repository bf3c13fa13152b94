import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey signup --dpop` and `passkey login --dpop` against `passkey tenant serve --require-dpop
/// --dpop-nonce` (auth0-passkey-api.md §16): each command a new process, the DPoP key sealed in
/// the session file between them, the nonce dance in every process.
@Suite(.serialized) struct DPoPEndToEndTests {
    @Test func aDPoPSessionSignsEveryLaterCommand() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant(arguments: ["--require-dpop", "--dpop-nonce"])

        // The application requires proofs: a signup without one gets no tokens.
        let plain = try await terminal.passkey("signup", "--email", "ada@example.com")
        #expect(plain.status == 1, "\(plain)")
        let signup = try await terminal.signUp("ada@example.com", "--dpop", "--json")
        #expect(try signup.json()["session"]?["token_type"]?.stringValue == "DPoP", "\(signup)")
        let sealed = terminal.sessionFiles()
        #expect(!sealed.isEmpty)
        #expect(sealed.values.allSatisfy { !String(decoding: $0, as: UTF8.self).contains("dpop_key") })

        // Later processes: /userinfo, the sample API, My Account, all with the sealed key.
        let whoami = try await terminal.passkey("whoami", "--refresh", "--json")
        #expect(whoami.status == 0, "\(whoami)")
        #expect(try whoami.json()["email"]?.stringValue == "ada@example.com", "\(whoami)")
        let userinfo = try await terminal.passkey("api", "GET", tenant.url + "/userinfo")
        #expect(userinfo.status == 0 && userinfo.stdout.contains("ada@example.com"), "\(userinfo)")
        let events = try await terminal.passkey(
            "api", "-v", "--audience", "https://localhost/api/", "--scope", "read:events", "GET",
            tenant.url + "/api/events")
        #expect(events.status == 0 && events.stdout.contains("\"events\""), "\(events)")
        #expect(events.stderr.contains("DPoP: <redacted>"), "\(events)")
        let apiToken = try await terminal.passkey(
            "token", "--audience", "https://localhost/api/", "--scope", "read:events")
        let token = apiToken.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(apiToken.status == 0 && token.hasPrefix("eyJ"), "\(apiToken)")
        #expect(!events.stderr.contains(token), "the trace never shows the token")
        let methods = try await terminal.passkey("methods", "--json")
        #expect(methods.status == 0, "\(methods)")
        #expect(try methods.json()["methods"]?.arrayValue?.count == 1, "\(methods)")

        // A new login with --dpop, then logout revokes and leaves nothing behind.
        let login = try await terminal.passkey("login", "--dpop")
        #expect(login.status == 0 && login.stdout.contains("DPoP"), "\(login)")
        let after = try await terminal.passkey("whoami", "--refresh")
        #expect(after.status == 0, "\(after)")
        let logout = try await terminal.passkey("logout", "--revoke")
        #expect(logout.status == 0 && logout.stdout.contains("revoked"), "\(logout)")
        #expect(terminal.sessionFiles().isEmpty)
        await tenant.stop()
    }
}
