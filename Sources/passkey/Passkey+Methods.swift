import ArgumentParser
import PasskeyKit

extension Passkey {
    /// `passkey methods`: the signed-in user's authentication methods.
    struct Methods: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the signed-in user's authentication methods (Auth0 My Account).")

        @OptionGroup var auth0: Auth0Options

        @Option(help: "Only methods of this type, e.g. passkey.")
        var type: String?

        func run() async throws {
            try await runningFlow("methods", auth0) { user in
                MethodsOutcome(
                    methods: try await user.authenticationMethods(type: type).map(MethodsOutcome.Method.init))
            }
        }
    }
}
