import ArgumentParser

/// `passkey`: a software passkey authenticator and WebAuthn ceremony engine.
///
/// Why one type over ~2,400 lines: `Passkey` is a namespace, not an object. ArgumentParser makes
/// each subcommand a type nested where its parent lists it (STYLE §6: one file per subcommand,
/// `Passkey+Signup.swift`, as apple/swift-argument-parser's `Examples/math/Math.swift` does), so
/// the lines counted under `Passkey` are some thirty independent subcommand types that share no
/// stored state and no method: `Passkey` itself is the command table below. Shared behaviour
/// lives in its own types (`Auth0Options`, `FlowFailure`, `DeviceOptions`, `Support/`), never as
/// members of `Passkey`.
@main
struct Passkey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey",
        abstract: "A software passkey authenticator and WebAuthn ceremony engine.",
        discussion: "It creates and uses passkeys from a terminal as a browser would, signs up and logs in to Auth0 "
            + "(or to the Auth0-compatible tenant it serves) with them, and verifies WebAuthn responses as a relying "
            + "party does. Results go to standard output (JSON with --json, and from create, get and verify whenever "
            + "standard output is not a terminal), diagnostics to standard error.",
        version: BuildInfo.line,
        groupedSubcommands: [
            CommandGroup(
                name: "Auth0",
                subcommands: [
                    Signup.self, Login.self, SeedUsers.self, Enroll.self, Methods.self, Whoami.self, Token.self,
                    API.self, Logout.self, Config.self, Demo.self, User.self, Link.self,
                ]),
            CommandGroup(
                name: "Authenticator and store",
                subcommands: [
                    Create.self, Get.self, List.self, Delete.self, SetProperties.self, Clone.self, Import.self,
                    Export.self, Profiles.self, AttestationCA.self,
                ]),
            CommandGroup(name: "Relying party", subcommands: [Verify.self, Inspect.self, Conformance.self]),
            CommandGroup(
                name: "Server", subcommands: [Tenant.self, Serve.self, MCPServer.self, Browser.self, Device.self]),
        ]
    )
}
