import ArgumentParser

@main
struct Passkey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey",
        abstract: "A software passkey authenticator and WebAuthn ceremony engine.",
        version: "0.1.0",
        subcommands: []
    )
}
