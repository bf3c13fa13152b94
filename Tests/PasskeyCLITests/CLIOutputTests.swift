import ArgumentParser
import Foundation
import TestSupport
import Testing
import WebAuthn

@testable import passkey

/// What the CLI prints, as a user meets it: `--help` by command groups, `--json` on every command
/// that prints, and what `verify --algorithm` lets a relying party accept.
@Suite struct CLIOutputTests {
    /// The commands listed under a help heading, up to the blank line that ends its section.
    static func commands(under heading: String, in help: String) -> [String] {
        guard let start = help.range(of: heading + "\n") else { return [] }
        return help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.isEmpty }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test func helpGroupsTheCommands() {
        let help = Passkey.helpMessage(columns: 200)
        let groups = [
            "AUTH0 SUBCOMMANDS:": [
                "signup", "login", "seed", "enroll", "methods", "whoami", "token", "api", "logout", "config", "demo",
                "user", "link",
            ],
            "AUTHENTICATOR AND STORE SUBCOMMANDS:": [
                "create", "get", "list", "delete", "set", "clone", "import", "export", "profiles", "attestation-ca",
            ],
            "RELYING PARTY SUBCOMMANDS:": ["verify", "inspect", "conformance"],
            "SERVER SUBCOMMANDS:": ["tenant", "serve", "mcp", "browser", "device"],
        ]
        for (heading, commands) in groups {
            #expect(Self.commands(under: heading, in: help) == commands, "\(heading)\n\(help)")
        }
        #expect(!groups.values.joined().contains("bench"))
        // The tool is described as a whole; what verify's exit statuses mean is told by verify.
        #expect(help.contains("signs up and logs in to Auth0"))
        #expect(!help.contains("exits 1"))
        #expect(Passkey.helpMessage(for: Passkey.Verify.self, columns: 200).contains("exits 1"))
    }

    // MARK: --json

    /// A store of its own, and `passkey` run over it with the given environment.
    struct Shell {
        let directory: TemporaryDirectory
        var store: String { directory.appending("store") }

        init() throws { directory = try TemporaryDirectory(prefix: "passkey-json") }

        func passkey(_ arguments: String...) async throws -> ProcessResult {
            try await ChildProcess.run(
                CLIProcess.executable, arguments,
                environment: .exactly([
                    "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                    "HOME": directory.path, "PASSKEY_STORE": store,
                    "PASSKEY_CONFIG": directory.appending("config.json"),
                    "PASSKEY_EXPORT_PASSPHRASE": "an export passphrase", "AUTH0_DOMAIN": "login.example.com",
                ]))
        }
    }

    /// Standard output as a JSON object, or a recorded issue.
    static func object(_ result: ProcessResult) throws -> [String: JSONValue] {
        #expect(result.status == 0, "\(result)")
        let output = Array(result.standardOutput)
        let value = try #require(
            try? WebAuthnJSON.decode(JSONValue.self, from: output),
            "standard output is not JSON: \(result.stdout) (standard error: \(result.stderr))")
        return try #require(value.objectValue)
    }

    @Test func everyStoreCommandPrintsJSON() async throws {
        let shell = try Shell()
        defer { shell.directory.remove() }
        let options = shell.directory.write("create.json", StoreCrashTests.creationOptions(user: "ada"))
        // Through a pipe, create prints its RegistrationResponseJSON, as scripts expect.
        let created = try Self.object(
            try await shell.passkey("create", "--origin", StoreCrashTests.origin, "--options", options))
        let id = try #require(created["id"]?.stringValue)

        let set = try Self.object(try await shell.passkey("set", "--backup-state", "true", "--json", "--", id))
        #expect(set["set"]?.objectValue?["id"] == .string(id))
        #expect(set["set"]?.objectValue?["backupState"] == .bool(true))

        let other = shell.directory.appending("other")
        let cloned = try Self.object(try await shell.passkey("clone", "--to", other, "--json", "--", id))
        #expect(cloned["cloned"]?.objectValue?["id"] == .string(id))
        #expect(cloned["to"] == .string(other))

        let file = shell.directory.appending("export.cxf")
        let exported = try Self.object(try await shell.passkey("export", "-o", file, "--json"))
        #expect(
            exported == ["file": .string(file), "exported": .number(1), "leftOut": .number(0), "sealed": .bool(true)])
        let toStandardOutput = try await shell.passkey("export", "--json")
        #expect(toStandardOutput.status == 64 && toStandardOutput.stdout.isEmpty, "\(toStandardOutput)")
        #expect(toStandardOutput.stderr.contains("give -o FILE"))

        let deleted = try Self.object(try await shell.passkey("delete", "--json", "--", id))
        #expect(deleted == ["deleted": .array([.string(id)])])

        let imported = try Self.object(try await shell.passkey("import", "--cxf", file, "--json"))
        #expect(imported["imported"]?.items?.map { $0.objectValue?["id"] } == [.string(id)])

        let authority = try Self.object(try await shell.passkey("attestation-ca", "--json"))
        #expect(authority["root"]?.stringValue?.hasPrefix("-----BEGIN CERTIFICATE-----") == true)

        // Without --json, the same commands print the text they always did.
        let text = try await shell.passkey("delete", "--", id)
        #expect(text.status == 0 && text.stdout == "deleted \(id)\n", "\(text)")
    }

    @Test func configPrintsJSON() async throws {
        let shell = try Shell()
        defer { shell.directory.remove() }
        #expect(try await shell.passkey("config", "set", "client-id", "abc").status == 0)
        #expect(
            try Self.object(try await shell.passkey("config", "get", "client-id", "--json"))
                == ["setting": .string("client-id"), "value": .string("abc")])
        let listing = try Self.object(try await shell.passkey("config", "list", "--json"))
        #expect(listing["path"] == .string(shell.directory.appending("config.json")))
        let settings = (listing["settings"]?.items ?? []).compactMap(\.objectValue)
        #expect(settings.count == TenantSetting.allCases.count)
        let clientID = try #require(settings.first { $0["setting"] == .string("client-id") })
        #expect(clientID["value"] == .string("abc") && clientID["overridden"] == .bool(false))
        let domain = try #require(settings.first { $0["setting"] == .string("domain") })
        #expect(domain["environment_variable"] == .string("AUTH0_DOMAIN") && domain["overridden"] == .bool(true))
    }

    @Test func theDemoPrintsOneJSONObject() async throws {
        let terminal = try Terminal()
        terminal.environment["TMPDIR"] = terminal.home
        let demo = try Self.object(try await terminal.passkey("demo", "--json"))
        #expect(demo["steps"]?.items?.count == 10)
        #expect(demo["steps"]?.items?.first == .string("Sign up ada@example.com with a new passkey"))
        #expect(demo["error"] == nil)
    }

    // MARK: verify --algorithm

    @Test func algorithmsParseByNameAndByIdentifier() throws {
        let base = [
            "verify", "registration", "--response", "r.json", "--challenge", "AAAA", "--origin", "https://a.example",
            "--rp-id", "a.example",
        ]
        let plain = try #require(try Passkey.parseAsRoot(base) as? Passkey.Verify.Registration)
        #expect(plain.relyingParty.relyingParty().allowedAlgorithms == COSEAlgorithm.signatureAlgorithms)
        let chosen = try #require(
            try Passkey.parseAsRoot(base + ["--algorithm", "es256", "--algorithm", "-8", "--algorithm=RS1"])
                as? Passkey.Verify.Registration)
        #expect(chosen.relyingParty.relyingParty().allowedAlgorithms == [.es256, .eddsa, .rs1])
        #expect(throws: (any Error).self) { try Passkey.parseAsRoot(base + ["--algorithm", "SHA1"]) }
        // ECDH-ES + HKDF-256 labels key-agreement keys; no credential signs with it.
        #expect(throws: (any Error).self) { try Passkey.parseAsRoot(base + ["--algorithm", "-25"]) }
    }

    /// SimpleWebAuthn's TPM registration whose credential key is RS1 (COSE -65535), verified by
    /// the built binary with `extra` arguments.
    static func verifyRS1(_ extra: [String] = []) async throws -> ProcessResult {
        let vector = try #require(
            try WebAuthnJSON.decode(JSONValue.self, from: Vectors.bytes("simplewebauthn", "reg-tpm-rs1.json"))
                .objectValue)
        let rp = try #require(vector["rp"]?.objectValue)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let response = directory.write(
            "response.json", String(decoding: WebAuthnJSON.encode(try #require(vector["response"])), as: UTF8.self))
        let challenge = try #require(rp["expected_challenge_b64url"]?.stringValue)
        let origin = try #require(rp["expected_origin"]?.stringValue)
        let rpID = try #require(rp["expected_rp_id"]?.stringValue)
        let time = try #require(vector["verification_time"]?.stringValue)
        return try await ChildProcess.run(
            CLIProcess.executable,
            [
                "verify", "registration", "--response", response, "--challenge", challenge, "--origin", origin,
                "--rp-id", rpID, "--at", time,
            ] + extra)
    }

    @Test func anRS1CredentialIsAcceptedOnlyWhenAllowed() async throws {
        let refused = try await Self.verifyRS1()
        #expect(refused.status == 1 && refused.stdout.isEmpty, "\(refused)")
        #expect(refused.stderr.hasPrefix("algorithm-not-allowed: "), "\(refused)")
        let notListed = try await Self.verifyRS1(["--algorithm", "RS256"])
        #expect(notListed.status == 1 && notListed.stderr.hasPrefix("algorithm-not-allowed: "), "\(notListed)")

        let allowing = [
            ["--algorithm", "RS1"], ["--algorithm=-65535"], ["--algorithm", "ES256", "--algorithm", "-65535"],
        ]
        for arguments in allowing {
            let output = try Self.object(try await Self.verifyRS1(arguments))
            #expect(output["algorithm"] == .number(-65535), "\(arguments)")
            #expect(output["format"] == .string("tpm"))
            #expect(output["signCount"] == .number(97))
            #expect(output["credentialId"] == .string("oELnad0f6-g2BtzEn_78iLNoubarlq0xFtOtAMXnflU"))
        }
    }
}

extension JSONValue {
    /// The elements of an array; nil for any other value.
    fileprivate var items: [JSONValue]? {
        if case .array(let items) = self { items } else { nil }
    }
}
