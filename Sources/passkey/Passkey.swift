import ArgumentParser

/// `passkey`: a software passkey authenticator and WebAuthn ceremony engine.
@main
struct Passkey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey",
        abstract: "A software passkey authenticator and WebAuthn ceremony engine.",
        discussion: "Decodes and verifies WebAuthn responses as a relying party would. "
            + "A failed check prints one line on standard error that starts with the reason code "
            + "(wrong-origin, bad-signature, ...) and exits 1; input that does not parse exits 2.",
        version: "0.1.0",
        subcommands: [
            Create.self, Get.self, List.self, Delete.self, SetProperties.self, Clone.self, Import.self, Profiles.self,
            Export.self, AttestationCA.self,
            Inspect.self,
            Verify.self,
            Signup.self, Login.self, Enroll.self, Methods.self, Whoami.self, Token.self, API.self, Logout.self,
            Config.self, Demo.self, Tenant.self, Serve.self, MCPServer.self,
        ]
    )
}
