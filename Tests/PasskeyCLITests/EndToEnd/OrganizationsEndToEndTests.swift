import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey tenant serve --config FILE` with organizations and flexible identifiers, and the
/// `passkey signup` / `passkey login` options that use them (auth0-passkey-api.md §17, §18).
@Suite(.serialized) struct OrganizationsEndToEndTests {
    static let configuration = """
        {"organizations": [{"name": "acme", "display_name": "Acme", "members": ["ada@example.com"]}],
         "organization_usage": "deny",
         "attributes": {"username": {"signup": {"status": "optional"}, "validation": {"min_length": 3, "max_length": 15}}}}
        """

    /// The organizations of a start line, by name.
    static func organizations(_ tenant: CLITenant) throws -> [String: String] {
        let line = try JSONValue(json: Data(tenant.process.startOutput.utf8))
        let listed = try #require(line["organizations"]?.arrayValue)
        return Dictionary(
            uniqueKeysWithValues: listed.compactMap { entry in
                entry["name"]?.stringValue.flatMap { name in entry["id"]?.stringValue.map { (name, $0) } }
            })
    }

    @Test func organizationsAndIdentifiersFromTheFileAndTheFlags() async throws {
        let terminal = try Terminal()
        let file = terminal.home + "/tenant.json"
        try Data(Self.configuration.utf8).write(to: URL(fileURLWithPath: file))
        let arguments = [
            "--config", file, "--organization", "globex", "--organization-usage", "allow", "--identifier",
            "email=optional", "--member", "acme=bob@example.com",
        ]
        var tenant = try await terminal.startTenant(arguments: arguments)
        let organizations = try Self.organizations(tenant)
        #expect(Set(organizations.keys) == ["acme", "globex"])
        #expect(organizations.values.allSatisfy { $0.hasPrefix("org_") && $0.count == 20 })

        // Signup by username only, by phone only: --identifier made email optional.
        let byUsername = try await terminal.passkey("signup", "--username", "ada_l")
        #expect(byUsername.status == 0, "\(byUsername)")
        let afterUsername = try await terminal.passkey("login")
        #expect(afterUsername.status == 0, "\(afterUsername)")
        let shortName = try await terminal.passkey("signup", "--username", "al")
        #expect(shortName.status == 1 && shortName.stderr.contains("3 to 15 characters"), "\(shortName)")
        let byPhone = try await terminal.passkey("signup", "--phone", "+14155550123")
        #expect(byPhone.status == 0, "\(byPhone)")
        let takenPhone = try await terminal.passkey("signup", "--phone", "+14155550123")
        #expect(takenPhone.status == 1 && takenPhone.stderr.contains("The user already exists."), "\(takenPhone)")

        // Signup into Globex (made by --organization: signup enabled), then login through it;
        // Acme takes no signups, and its login refuses a non-member.
        try await terminal.signUp("dan@example.com", "--organization", "globex")
        let throughGlobex = try await terminal.passkey("login", "--organization", "globex")
        #expect(throughGlobex.status == 0, "\(throughGlobex)")
        let intoAcme = try await terminal.passkey("signup", "--email", "eve@example.com", "--organization", "acme")
        #expect(
            intoAcme.status == 1 && intoAcme.stderr.contains("signup is not allowed for this organization"),
            "\(intoAcme)")
        let throughAcme = try await terminal.passkey("login", "--organization", organizations["acme"] ?? "")
        #expect(throughAcme.status == 1 && throughAcme.stderr.contains("is not part of the"), "\(throughAcme)")
        let unknown = try await terminal.passkey("login", "--organization", "initech")
        #expect(unknown.status == 1 && unknown.stderr.contains("invalid organization"), "\(unknown)")

        // A restart keeps the organizations' IDs and the membership made at signup.
        await tenant.stop()
        tenant = try await CLITenant(database: terminal.database, port: tenant.port, arguments: arguments)
        #expect(try Self.organizations(tenant) == organizations)
        let again = try await terminal.passkey("login", "--organization", "globex")
        #expect(again.status == 0, "\(again)")
        await tenant.stop()
    }

    @Test func aMalformedFileOrFlagStopsTheTenant() async throws {
        let terminal = try Terminal()
        let file = terminal.home + "/tenant.json"
        try Data(#"{"organizations": [{"name": "acme", "colour": "red"}]}"#.utf8).write(to: URL(fileURLWithPath: file))
        let malformed = try await terminal.passkey("tenant", "serve", "--db", ":memory:", "--config", file)
        #expect(malformed.status != 0)
        #expect(malformed.stderr.contains("organizations[0].colour: unknown key"), "\(malformed)")
        let flag = try await terminal.passkey("tenant", "serve", "--db", ":memory:", "--identifier", "fax=required")
        #expect(flag.status != 0 && flag.stderr.contains("--identifier fax=required"), "\(flag)")
        let member = try await terminal.passkey(
            "tenant", "serve", "--db", ":memory:", "--member", "acme=ada@example.com")
        #expect(member.status != 0 && member.stderr.contains("no organization of that name"), "\(member)")
    }
}
