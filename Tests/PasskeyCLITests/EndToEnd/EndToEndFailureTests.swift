import Foundation
import TestSupport
import Testing
import WebAuthn

/// Each way an Auth0 command fails, from a terminal: one clear line (or `{"error": …}` with
/// `--json`), exit status 1, and the authenticator store and the session left as they were.
@Suite(.serialized) struct EndToEndFailureTests {
    /// A terminal with Ada signed up against a fresh tenant.
    static func signedUp(_ arguments: [String] = []) async throws -> (Terminal, CLITenant) {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant(arguments: arguments)
        try await terminal.signUp("ada@example.com")
        return (terminal, tenant)
    }

    /// Expects one line on standard error starting with `prefix` and containing `parts`, nothing on
    /// standard output, exit 1.
    static func expectFailure(
        _ result: ProcessResult, _ prefix: String, _ parts: String..., sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
        #expect(result.errorLines.count == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix(prefix), "\(result)", sourceLocation: sourceLocation)
        for part in parts {
            #expect(result.stderr.contains(part), "\(result)", sourceLocation: sourceLocation)
        }
    }

    @Test func theTenantIsDown() async throws {
        let (terminal, tenant) = try await Self.signedUp()
        let store = terminal.storeFiles()
        let session = terminal.sessionFiles()
        await tenant.stop()
        let signup = try await terminal.passkey("signup", "--email", "eve@example.com")
        Self.expectFailure(signup, "signup failed: cannot-connect: no answer from the tenant", "is the tenant running")
        let login = try await terminal.passkey("login")
        Self.expectFailure(login, "login failed: cannot-connect")
        #expect(terminal.storeFiles() == store)
        #expect(terminal.sessionFiles() == session)

        // Nothing at all is stored by a first signup that cannot reach the tenant.
        let fresh = try Terminal()
        fresh.environment["AUTH0_BASE_URL"] = tenant.url
        fresh.environment["AUTH0_CLIENT_ID"] = tenant.clientID
        Self.expectFailure(
            try await fresh.passkey("signup", "--email", "eve@example.com"), "signup failed: cannot-connect")
        #expect(fresh.storeFiles().isEmpty && fresh.sessionFiles().isEmpty)
    }

    @Test func aWrongClientID() async throws {
        let (terminal, tenant) = try await Self.signedUp()
        let session = terminal.sessionFiles()
        let login = try await terminal.passkey("login", "--client-id", "no-such-app")
        Self.expectFailure(login, "login failed: invalid_client (HTTP 401)", "check --client-id")
        let json = try await terminal.passkey("login", "--client-id", "no-such-app", "--json")
        #expect(json.status == 1 && json.stderr.isEmpty)
        let error = try #require(try json.json()["error"]?.objectValue)
        #expect(error["code"]?.stringValue == "invalid_client" && error["status"]?.numberValue == 401)
        #expect(error["step"]?.stringValue == "login" && (error["hint"]?.stringValue)?.isEmpty == false)
        #expect(terminal.sessionFiles() == session)
        await tenant.stop()
    }

    /// An origin the client allows for RP ID `localhost` but the tenant does not accept: the tenant
    /// refuses the attestation, and the passkey it refused is deleted from the store again.
    @Test func anOriginTheTenantDoesNotAccept() async throws {
        let (terminal, tenant) = try await Self.signedUp()
        let store = terminal.storeFiles()
        let session = terminal.sessionFiles()
        let signup = try await terminal.passkey(
            "signup", "--email", "eve@example.com", "--origin", "http://localhost:8080")
        Self.expectFailure(signup, "signup failed: invalid_grant (HTTP 4", "wrong-origin", "drop --origin")
        #expect(terminal.storeFiles() == store)
        #expect(terminal.sessionFiles() == session)
        let login = try await terminal.passkey("login", "--origin", "http://localhost:8080")
        Self.expectFailure(login, "login failed: invalid_grant", "wrong-origin")
        #expect(terminal.storeFiles() == store && terminal.sessionFiles() == session)
        // The origin the tenant accepts still works.
        #expect(try await terminal.passkey("login").status == 0)
        await tenant.stop()
    }

    @Test func aCancelledCeremony() async throws {
        let (terminal, tenant) = try await Self.signedUp()
        let store = terminal.storeFiles()
        let session = terminal.sessionFiles()
        Self.expectFailure(
            try await terminal.passkey("login", "--simulate", "cancel"), "login failed: NotAllowedError",
            "nothing was stored")
        Self.expectFailure(
            try await terminal.passkey("signup", "--email", "eve@example.com", "--simulate", "cancel"),
            "signup failed: NotAllowedError")
        #expect(terminal.storeFiles() == store && terminal.sessionFiles() == session)
        // Enrollment exchanges the refresh token (rotating it) before the ceremony: the session
        // changes but stays valid.
        Self.expectFailure(
            try await terminal.passkey("enroll", "--store", terminal.home + "/laptop", "--simulate", "cancel"),
            "enroll failed: NotAllowedError")
        #expect(terminal.storeFiles() == store)
        #expect(terminal.storeFiles(terminal.home + "/laptop").isEmpty)
        #expect(try await terminal.passkey("whoami").stdout.contains("ada@example.com"))
        #expect(try await terminal.passkey("token").status == 0)
        await tenant.stop()
    }

    @Test func aCorruptStoreFile() async throws {
        let (terminal, tenant) = try await Self.signedUp()
        let session = terminal.sessionFiles()
        let (name, _) = try #require(terminal.storeFiles().first)
        let path = terminal.home + "/phone/credentials/" + name
        let garbage = Data("{\"version\": 1, \"credential\": tru".utf8)
        try garbage.write(to: URL(fileURLWithPath: path))
        let login = try await terminal.passkey("login")
        Self.expectFailure(login, "login failed: store-corrupt: ", path, "damaged")
        #expect(FileManager.default.contents(atPath: path) == garbage, "the damaged file is kept for the user")
        #expect(terminal.sessionFiles() == session)
        await tenant.stop()
    }

    @Test func userVerificationRequiredButDenied() async throws {
        let (terminal, tenant) = try await Self.signedUp(["--require-uv"])
        let store = terminal.storeFiles()
        let session = terminal.sessionFiles()
        Self.expectFailure(
            try await terminal.passkey("login", "--simulate", "deny-uv"), "login failed: NotAllowedError")
        Self.expectFailure(
            try await terminal.passkey("signup", "--email", "eve@example.com", "--simulate", "deny-uv"),
            "signup failed: NotAllowedError")
        #expect(terminal.storeFiles() == store && terminal.sessionFiles() == session)
        #expect(try await terminal.passkey("login").status == 0)
        await tenant.stop()
    }
}
