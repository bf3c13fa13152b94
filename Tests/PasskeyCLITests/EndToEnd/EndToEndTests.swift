import Foundation
import TestSupport
import Testing
import WebAuthn

/// The built `passkey` driving the built `passkey tenant serve`, as a user does from a terminal:
/// signup, login, two users in one store, enrollment, methods, token, api, logout with
/// revocation, and a restarted tenant.
@Suite(.serialized) struct EndToEndTests {
    @Test func theLifeOfTwoUsersInOneStore() async throws {
        let terminal = try Terminal()
        var tenant = try await terminal.startTenant()

        let ada = try await terminal.signUp("ada@example.com", "--name", "Ada Lovelace")
        #expect(ada.stdout.hasPrefix("Signed up ada@example.com (auth0|"))
        #expect(ada.stdout.contains("for localhost") && ada.stdout.contains("access token valid until"))
        #expect(!ada.stdout.contains("eyJ"), "no token without --show-tokens")
        let bob = try await terminal.signUp("bob@example.com", "--json")
        let bobSession = try #require(try bob.json()["session"]?.objectValue)
        let bobTokens = try #require(bobSession["tokens"]?.objectValue)
        #expect((bobTokens["access_token"]?.stringValue)?.hasPrefix("eyJ") == true)
        #expect(terminal.storeFiles().count == 2)

        // Two passkeys for localhost and no selector: the most recent, named.
        let recent = try await terminal.passkey("login")
        #expect(recent.status == 0, "\(recent)")
        #expect(recent.stdout.hasPrefix("Logged in as bob@example.com"))
        #expect(recent.stdout.contains("holds 2 passkeys for localhost; the most recent (bob@example.com) was used"))
        let chosen = try await terminal.passkey("login", "--user", "ada@example.com")
        #expect(chosen.stdout.hasPrefix("Logged in as ada@example.com"), "\(chosen)")
        let whoami = try await terminal.passkey("whoami", "--json")
        #expect(try whoami.json()["email"]?.stringValue == "ada@example.com")
        #expect(try whoami.json()["source"]?.stringValue == "id_token")
        let userinfo = try await terminal.passkey("whoami", "--refresh", "--json")
        #expect(try userinfo.json()["source"]?.stringValue == "userinfo")
        #expect(try userinfo.json()["sub"]?.stringValue == (try whoami.json()["sub"]?.stringValue))

        // The phone already holds Ada's passkey; a second one comes from the laptop.
        let sameDevice = try await terminal.passkey("enroll")
        #expect(sameDevice.status == 1 && sameDevice.stderr.contains("already_enrolled_here"), "\(sameDevice)")
        #expect(terminal.storeFiles().count == 2)
        let enrolled = try await terminal.passkey("enroll", "--store", terminal.home + "/laptop")
        #expect(enrolled.status == 0, "\(enrolled)")
        #expect(enrolled.stdout.hasPrefix("Enrolled passkey ") && enrolled.stdout.contains("ada@example.com"))
        let methods = try await terminal.passkey("methods", "--json")
        let listed = try #require(try methods.json()["methods"]?.arrayValue)
        #expect(listed.count == 2 && listed.allSatisfy { $0["type"]?.stringValue == "passkey" })
        let fromLaptop = try await terminal.passkey("login", "--store", terminal.home + "/laptop")
        #expect(fromLaptop.stdout.hasPrefix("Logged in as ada@example.com"), "\(fromLaptop)")

        // A token for scripts, and the sample API with a token for its audience.
        let token = try await terminal.passkey("token")
        #expect(token.status == 0 && token.stdout.hasPrefix("eyJ") && token.stdout.split(separator: "\n").count == 1)
        let refused = try await terminal.passkey("api", "GET", tenant.url + "/api/events")
        #expect(refused.status == 1 && refused.stderr.contains("invalid_token (HTTP 401)"), "\(refused)")
        let events = try await terminal.passkey(
            "api", "--audience", "https://localhost/api/", "--scope", "read:events", "GET", tenant.url + "/api/events")
        #expect(events.status == 0, "\(events)")
        let sub = try #require(try whoami.json()["sub"]?.stringValue)
        #expect(events.stdout.contains("\"events\"") && events.stdout.contains(sub))

        // Logout with revocation: the session is gone, and so is the refresh token at the tenant.
        let logout = try await terminal.passkey("logout", "--revoke")
        #expect(logout.status == 0 && logout.stdout.contains("revoked"), "\(logout)")
        #expect(terminal.sessionFiles().isEmpty)
        let afterLogout = try await terminal.passkey("token")
        #expect(afterLogout.status == 1 && afterLogout.stdout.isEmpty)
        #expect(afterLogout.errorLines.count == 1)
        #expect(
            afterLogout.stderr.hasPrefix("token failed: not_logged_in") && afterLogout.stderr.contains("passkey login"))

        // The tenant restarts on the same database and port: users and passkeys remain.
        await tenant.stop()
        tenant = try await CLITenant(database: terminal.database, port: tenant.port)
        let again = try await terminal.passkey("login", "--user", "bob@example.com")
        #expect(again.status == 0 && again.stdout.hasPrefix("Logged in as bob@example.com"), "\(again)")
        let laptopAgain = try await terminal.passkey("login", "--store", terminal.home + "/laptop")
        #expect(laptopAgain.stdout.hasPrefix("Logged in as ada@example.com"), "\(laptopAgain)")
        await tenant.stop()
    }

    /// `passkey demo` (`make demo`): every step, exit 0, nothing left behind.
    @Test func aPasskeyExportedFromThePhoneLogsInFromTheLaptop() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant()
        try await terminal.signUp("ada@example.com")
        terminal.environment["PASSKEY_EXPORT_PASSPHRASE"] = "correct horse battery staple"
        let file = terminal.home + "/passkeys.cxf.json"
        let export = try await terminal.passkey("export", "-o", file)
        #expect(export.status == 0, "\(export)")

        terminal.environment["PASSKEY_STORE"] = terminal.home + "/laptop"
        let before = try await terminal.passkey("login")
        #expect(before.status == 1, "an empty laptop has no passkey: \(before)")
        let imported = try await terminal.passkey("import", "--cxf", file)
        #expect(imported.status == 0 && imported.stdout.hasPrefix("imported "), "\(imported)")
        let login = try await terminal.passkey("login")
        #expect(login.status == 0, "\(login)")
        #expect(login.stdout.hasPrefix("Logged in as ada@example.com"), "\(login)")
        let exported = try #require(FileManager.default.contents(atPath: file))
        for (_, credential) in terminal.storeFiles(terminal.home + "/phone") {
            let json = try JSONValue(json: credential)
            let id = try #require(json["credential"]?["id"]?.stringValue)
            #expect(!String(decoding: exported, as: UTF8.self).contains(id), "the export is sealed")
        }
    }

    @Test func signupLoginAndEnrollWithKeysInAPKCS11Token() async throws {
        let terminal = try Terminal()
        terminal.environment.merge(try await SoftHSMToken.prepare()) { $1 }
        let tenant = try await terminal.startTenant()
        try await terminal.signUp("ada@example.com")
        let login = try await terminal.passkey("login")
        #expect(login.status == 0 && login.stdout.hasPrefix("Logged in as ada@example.com"), "\(login)")
        let enroll = try await terminal.passkey("enroll", "--store", terminal.home + "/second-token-store")
        #expect(enroll.status == 0, "\(enroll)")
        let methods = try await terminal.passkey("methods", "--json")
        #expect(methods.status == 0, "\(methods)")
        #expect(
            terminal.storeFiles().count == 1 && terminal.storeFiles(terminal.home + "/second-token-store").count == 1)
        for (name, record) in terminal.storeFiles() {
            let text = String(decoding: record, as: UTF8.self)
            #expect(text.contains(Base64URL.encode(Array("pkcs11:\(SoftHSMToken.label)".utf8))), "\(name)")
        }
        var software = terminal.environment
        software["PASSKEY_BACKEND"] = "software"
        let withoutToken = try await ChildProcess.run(
            CLIProcess.executable, ["login"], environment: .exactly(software))
        #expect(withoutToken.status == 1, "a token's store is refused by the software backend: \(withoutToken)")
        #expect(withoutToken.stderr.contains("pkcs11:\(SoftHSMToken.label)"), "\(withoutToken)")
    }

    @Test func theDemoRunsEveryStepAndLeavesNothing() async throws {
        let terminal = try Terminal()
        terminal.environment["TMPDIR"] = terminal.home
        let demo = try await terminal.passkey("demo")
        #expect(demo.status == 0, "\(demo)")
        for step in 1...10 {
            #expect(demo.stdout.contains("\n[\(step)] "))
        }
        #expect(demo.stdout.contains("All 10 steps succeeded"))
        #expect(demo.stdout.contains("The revoked refresh token is refused: invalid_grant"))
        let left = try FileManager.default.contentsOfDirectory(atPath: terminal.home)
        #expect(left.allSatisfy { !$0.hasPrefix("passkey-demo") }, "\(left)")
    }

    /// `passkey demo --keep`: the tenant stays up, the printed exports work, Ctrl-C ends it cleanly.
    @Test func theKeptDemoCanBeContinuedByHand() async throws {
        let terminal = try Terminal()
        terminal.environment["TMPDIR"] = terminal.home
        let demo = try await ChildProcess.start(
            CLIProcess.executable, ["demo", "--keep"], environment: .exactly(terminal.environment),
            readyWhen: { $0.contains("passkey logout --revoke\n") })
        let printed = demo.startOutput
        for line in printed.split(separator: "\n") where line.hasPrefix("  export ") {
            for assignment in line.dropFirst("  export ".count).split(separator: " ") {
                let parts = assignment.split(separator: "=", maxSplits: 1)
                terminal.environment[String(parts[0])] = String(parts[1])
            }
        }
        #expect(terminal.environment["AUTH0_BASE_URL"] != nil && terminal.environment["PASSKEY_SESSIONS"] != nil)
        let login = try await terminal.passkey("login")
        #expect(login.status == 0 && login.stdout.hasPrefix("Logged in as ada@example.com"), "\(login)")
        demo.send(SIGINT)
        let exit = try await demo.wait()
        #expect(exit.signal == nil && exit.status == 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: terminal.home)
        #expect(left.allSatisfy { !$0.hasPrefix("passkey-demo") }, "\(left)")
    }

    /// Flags win over the environment, which wins over the config file.
    @Test func configurationPrecedence() async throws {
        let terminal = try Terminal()
        let tenant = try await CLITenant(database: terminal.database)
        #expect(try await terminal.passkey("config", "set", "base-url", tenant.url).status == 0)
        #expect(try await terminal.passkey("config", "set", "client-id", "not-this-one").status == 0)
        #expect(try await terminal.passkey("config", "get", "client-id").stdout == "not-this-one\n")

        let fromFile = try await terminal.passkey("signup", "--email", "ada@example.com")
        #expect(fromFile.status == 1 && fromFile.stderr.contains("invalid_client (HTTP 401)"), "\(fromFile)")
        #expect(fromFile.stderr.contains("--client-id"))

        terminal.environment["AUTH0_CLIENT_ID"] = tenant.clientID
        try await terminal.signUp("ada@example.com")

        let fromFlag = try await terminal.passkey("login", "--client-id", "wrong")
        #expect(fromFlag.status == 1 && fromFlag.stderr.contains("invalid_client"), "\(fromFlag)")
        #expect(try await terminal.passkey("login", "--client-id", tenant.clientID).status == 0)

        #expect(try await terminal.passkey("config", "unset", "base-url").status == 0)
        let unconfigured = try await terminal.passkey("whoami")
        #expect(unconfigured.status == 1 && unconfigured.stderr.contains("no_tenant"), "\(unconfigured)")
        await tenant.stop()
    }

    /// `-v` shows the HTTP exchanges, with every secret redacted.
    @Test func verboseTraceRedactsSecrets() async throws {
        let terminal = try Terminal()
        let tenant = try await terminal.startTenant()
        let signup = try await terminal.signUp("ada@example.com", "-v", "--show-tokens")
        #expect(signup.stderr.contains("/passkey/register") && signup.stderr.contains("/oauth/token"))
        #expect(signup.stderr.contains("<redacted>"))
        let tokens = signup.stdout.split(separator: "\n").filter {
            $0.hasPrefix("access_token") || $0.hasPrefix("id_token") || $0.hasPrefix("refresh_token")
        }
        #expect(tokens.count == 3)
        for line in tokens {
            let token = try #require(line.split(separator: " ").last)
            #expect(token.count > 20 && !signup.stderr.contains(token))
        }
        await tenant.stop()
    }
}
