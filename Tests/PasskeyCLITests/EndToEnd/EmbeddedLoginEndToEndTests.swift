import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey login --web` with no browser against `passkey tenant serve` as a passkey provider in
/// embedded mode (issue 40): an application whose invoke URL is the CLI's default
/// (`http://127.0.0.1/invoke`), the provider's redirect there answered with the store's passkey,
/// the continue URL followed, the code exchanged. `--connection` alone chooses no browser; the
/// two-tenant story (A's upstream connection to this provider) is the end-to-end suites'.
@Suite struct EmbeddedLoginEndToEndTests {
    @Test func theCLIAnswersTheInvokeURLWithTheStoresPasskey() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant(arguments: [
            "--app",
            "name=embedded,app_type=native,client_id=embedded,callbacks=http://127.0.0.1/callback,"
                + "invoke_url=http://127.0.0.1/invoke",
        ])
        try await terminal.signUp("ada@example.com")

        let login = try await terminal.passkey(
            "login", "--web", "--client-id", "embedded", "--connection", "Username-Password-Authentication")
        #expect(login.status == 0, "\(login)")
        #expect(
            login.stdout.hasPrefix(
                "Logged in ada@example.com (auth0|"), "\(login)")
        #expect(login.stdout.contains("on the web with no browser through connection Username-Password-Authentication"))

        let json = try await terminal.passkey(
            "login", "--web", "--browser", "none", "--client-id", "embedded", "--json")
        #expect(json.status == 0, "\(json)")
        #expect(try json.json()["browser"]?.stringValue == "none")

        // An invoke URL the provider's client did not register: the redirect is fetched as any
        // other, and nothing answers there.
        let elsewhere = try await terminal.passkey(
            "login", "--web", "--browser", "none", "--client-id", "embedded", "--invoke-url",
            "http://127.0.0.1:1/other")
        #expect(elsewhere.status == 1, "\(elsewhere)")
        #expect(elsewhere.stderr.hasPrefix("login failed: "), "\(elsewhere)")
        await tenant.stop()
    }

    @Test func invokeURLGoesWithWebAndIsAnAbsoluteURL() async throws {
        let terminal = try Terminal()
        for arguments in [
            ["login", "--invoke-url", "http://127.0.0.1/invoke"], ["login", "--web", "--invoke-url", "/invoke"],
            ["login", "--web", "--browser", "none", "--headless"],
        ] {
            let result = try await ChildProcess.run(
                CLIProcess.executable, arguments, environment: .exactly(terminal.environment))
            #expect(result.status == 64, "\(arguments): \(result)")
        }
    }
}
