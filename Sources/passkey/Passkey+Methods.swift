import ArgumentParser

extension Passkey {
    /// `passkey methods`: the signed-in user's authentication methods.
    struct Methods: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the signed-in user's authentication methods (Auth0 My Account).")

        @OptionGroup var auth0: Auth0Options

        @Option(help: "Only methods of this type, e.g. passkey.")
        var type: String?

        func run() async throws {
            try await runningFlow("methods", auth0) { flows in try await flows.methods(type: type) }
        }
    }
}
