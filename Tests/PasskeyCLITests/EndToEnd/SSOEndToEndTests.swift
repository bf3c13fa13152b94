import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey token --sso`: a session transfer token from the session's refresh token (Native to
/// Web SSO), alone, as a URL to open, or as JSON, with the tenant's `--session-transfer-lifetime`.
@Suite(.serialized) struct SSOEndToEndTests {
    @Test func aSessionTransferTokenForTheBrowser() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant(arguments: ["--session-transfer-lifetime", "30"])
        #expect(try await terminal.signUp("ada@example.com").status == 0)

        let plain = try await terminal.passkey("token", "--sso")
        #expect(plain.status == 0, "\(plain)")
        let token = plain.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!token.isEmpty && !token.hasPrefix("eyJ"))

        let login = tenant.url + "/authorize?client_id=web"
        let url = try await terminal.passkey("token", "--sso", "--sso-url", login)
        #expect(url.status == 0, "\(url)")
        #expect(url.stdout.hasPrefix(login + "&session_transfer_token="))
        #expect(!url.stdout.contains(token), "each call is a new token")

        let json = try await terminal.passkey("token", "--sso", "--json")
        let object = try json.json()
        #expect(
            object["issued_token_type"]?.stringValue == "urn:auth0:params:oauth:token-type:session_transfer_token")
        let expiry = try #require(object["expires_at"]?.stringValue)
        let expiresAt = try #require(try? Date(expiry, strategy: .iso8601))
        #expect(expiresAt.timeIntervalSinceNow < 31)

        // The refresh token was rotated each time, and the session kept the new one.
        #expect(try await terminal.passkey("token").status == 0)
        let misuse = try await terminal.passkey("token", "--sso-url", login)
        #expect(misuse.status != 0 && misuse.stderr.contains("--sso-url goes with --sso"))
        await tenant.stop()
    }
}
