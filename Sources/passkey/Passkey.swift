import ArgumentParser

/// `passkey`: a software passkey authenticator and WebAuthn ceremony engine.
@main
struct Passkey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey",
        abstract: "A software passkey authenticator and WebAuthn ceremony engine.",
        discussion: "It creates and uses passkeys from a terminal as a browser would, signs up and logs in to Auth0 "
            + "(or to the Auth0-compatible tenant it serves) with them, and verifies WebAuthn responses as a relying "
            + "party does. Results go to standard output (JSON with --json, and from create, get and verify whenever "
            + "standard output is not a terminal), diagnostics to standard error.",
        version: "0.1.0",
        groupedSubcommands: [
            CommandGroup(
                name: "Auth0",
                subcommands: [
                    Signup.self, Login.self, SeedUsers.self, Enroll.self, Methods.self, Whoami.self, Token.self,
                    API.self, Logout.self, Config.self, Demo.self,
                ]),
            CommandGroup(
                name: "Authenticator and store",
                subcommands: [
                    Create.self, Get.self, List.self, Delete.self, SetProperties.self, Clone.self, Import.self,
                    Export.self, Profiles.self, AttestationCA.self,
                ]),
            CommandGroup(name: "Relying party", subcommands: [Verify.self, Inspect.self]),
            CommandGroup(
                name: "Server", subcommands: [Tenant.self, Serve.self, MCPServer.self, Browser.self, Device.self]),
        ]
    )
}
