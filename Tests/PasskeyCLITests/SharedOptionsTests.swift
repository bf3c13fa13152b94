import ArgumentParser
import Auth0Passkeys
import Testing

@testable import passkey

/// The options many commands share are declared once (`CABundleOptions`, `OutputOptions`): each
/// command that takes one takes it with the same name, help and meaning.
@Suite struct SharedOptionsTests {
    /// Every command that makes HTTP requests as a client: the Auth0 commands, `create`, `get` and
    /// `browser` (related origins), `serve` and `mcp` (virtual users), `tenant serve` (its upstream
    /// connections' issuers).
    static let httpClients: [any ParsableCommand.Type] = [
        Passkey.Signup.self, Passkey.Login.self, Passkey.SeedUsers.self, Passkey.Enroll.self,
        Passkey.Methods.List.self, Passkey.Methods.Rename.self, Passkey.Methods.Delete.self, Passkey.Whoami.self,
        Passkey.Token.self, Passkey.API.self, Passkey.Logout.self, Passkey.Create.self, Passkey.Get.self,
        Passkey.Serve.self, Passkey.MCPServer.self, Passkey.Tenant.Serve.self, Passkey.Browser.self,
    ]

    /// Every command that prints a result and takes `--json`.
    static let printers: [any ParsableCommand.Type] = [
        Passkey.Signup.self, Passkey.Login.self, Passkey.SeedUsers.self, Passkey.Enroll.self,
        Passkey.Methods.List.self, Passkey.Whoami.self, Passkey.Token.self, Passkey.API.self, Passkey.Logout.self,
        Passkey.Config.Get.self, Passkey.Config.List.self, Passkey.Demo.self, Passkey.Create.self, Passkey.Get.self,
        Passkey.List.self, Passkey.Delete.self, Passkey.SetProperties.self, Passkey.Clone.self, Passkey.Import.self,
        Passkey.Export.self, Passkey.Profiles.self, Passkey.AttestationCA.self, Passkey.Verify.Registration.self,
        Passkey.Verify.Authentication.self, Passkey.Inspect.self, Passkey.Tenant.Serve.self, Passkey.Serve.self,
        Passkey.Browser.self,
    ]

    @Test(arguments: httpClients.map(Command.init))
    func everyHTTPClientTakesCACert(_ command: Command) {
        let help = Passkey.helpMessage(for: command.type, columns: 200)
        #expect(help.contains("--cacert <file>"), "\(command)")
        #expect(help.contains("A PEM file of CA certificates to trust instead of the system's"), "\(command)")
    }

    @Test(arguments: [Passkey.Demo.self].map(Command.init))
    func commandsThatMakeNoRequestTakeNoCACert(_ command: Command) {
        #expect(!Passkey.helpMessage(for: command.type, columns: 200).contains("--cacert"), "\(command)")
    }

    @Test(arguments: printers.map(Command.init))
    func everyJSONFlagIsTheSame(_ command: Command) {
        let help = Passkey.helpMessage(for: command.type, columns: 200)
        let lines = help.split(separator: "\n").filter { $0.drop(while: { $0 == " " }).hasPrefix("--json") }
        #expect(lines.count == 1, "\(command)")
        #expect(lines.first?.hasSuffix("Print JSON on standard output instead of text.") == true, "\(command)")
    }

    @Test func caCertReachesEachTransport() throws {
        let environment = ["CURL_CA_BUNDLE": "/curl.pem"]
        let get = try #require(
            try Passkey.parseAsRoot(["get", "--origin", "https://a.example", "--cacert", "/ca.pem"]) as? Passkey.Get)
        #expect(get.authenticator.trust.transport(environment: environment).caBundlePath == "/ca.pem")
        let serve = try #require(try Passkey.parseAsRoot(["serve", "--cacert", "/ca.pem"]) as? Passkey.Serve)
        #expect(serve.trust.transport(environment: environment).caBundlePath == "/ca.pem")
        let mcp = try #require(try Passkey.parseAsRoot(["mcp", "--cacert", "/ca.pem"]) as? Passkey.MCPServer)
        #expect(mcp.trust.transport(environment: environment).caBundlePath == "/ca.pem")
        let login = try #require(try Passkey.parseAsRoot(["login", "--cacert", "/ca.pem"]) as? Passkey.Login)
        #expect(login.session.auth0.trust.transport(environment: environment).caBundlePath == "/ca.pem")
        let browser = try #require(
            try Passkey.parseAsRoot(["browser", "--cacert", "/ca.pem", "https://a.example"]) as? Passkey.Browser)
        #expect(browser.trust.transport(environment: environment).caBundlePath == "/ca.pem")
        // Without the flag, curl's order: the environment's bundle.
        let plain = try #require(try Passkey.parseAsRoot(["serve"]) as? Passkey.Serve)
        #expect(plain.trust.transport(environment: environment).caBundlePath == "/curl.pem")
    }

    @Test(
        arguments: [Passkey.Create.self, Passkey.Get.self, Passkey.Serve.self, Passkey.MCPServer.self].map(Command.init)
    )
    func relatedOriginsIsOneFlag(_ command: Command) throws {
        let help = Passkey.helpMessage(for: command.type, columns: 200)
        let lines = help.split(separator: "\n").filter { $0.drop(while: { $0 == " " }).hasPrefix("--related-origins") }
        #expect(lines.count == 1, "\(command)")
        #expect(lines.first?.contains("fetch https://RPID/.well-known/webauthn") == true, "\(command)")
        let serve = try #require(try Passkey.parseAsRoot(["serve", "--related-origins"]) as? Passkey.Serve)
        #expect(serve.relatedOrigins.enabled)
        #expect(serve.relatedOrigins.fetcher(serve.trust) != nil)
        let plain = try #require(try Passkey.parseAsRoot(["serve"]) as? Passkey.Serve)
        #expect(plain.relatedOrigins.fetcher(plain.trust) == nil)
    }

    @Test func jsonReachesEachCommand() throws {
        let list = try #require(try Passkey.parseAsRoot(["list", "--json"]) as? Passkey.List)
        #expect(list.format.json)
        let login = try #require(try Passkey.parseAsRoot(["login", "--json"]) as? Passkey.Login)
        #expect(login.session.auth0.format.json)
        let serve = try #require(try Passkey.parseAsRoot(["serve"]) as? Passkey.Serve)
        #expect(!serve.format.json)
    }

    /// A command type as a test argument, named by its command name.
    struct Command: CustomTestStringConvertible, Sendable {
        let type: any ParsableCommand.Type
        init(_ type: any ParsableCommand.Type) { self.type = type }
        var testDescription: String { type._commandName }
    }
}
