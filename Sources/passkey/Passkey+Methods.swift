import ArgumentParser
import PasskeyKit

extension Passkey {
    /// `passkey methods`: the signed-in user's authentication methods; listing them is the
    /// default, so `passkey methods [--type passkey]` reads as it always did.
    struct Methods: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List, rename or delete the signed-in user's authentication methods (Auth0 My Account).",
            subcommands: [List.self, Rename.self, Delete.self], defaultSubcommand: List.self)

        /// `passkey methods [list]`: the methods (auth0-passkey-api.md §5.5).
        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List the signed-in user's authentication methods.")

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

        /// `passkey methods rename ID NAME` (auth0-passkey-api.md §19.1).
        struct Rename: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Name one of the user's authentication methods.")

            @OptionGroup var auth0: Auth0Options

            @Argument(help: "The method's ID, as `passkey methods` lists it.")
            var id: String

            @Argument(help: "The new name, 1 to 128 characters.")
            var name: String

            func run() async throws {
                try await runningFlow("methods rename", auth0) { user in
                    RenamedMethodOutcome(
                        method: .init(try await user.renameAuthenticationMethod(id: id, name: name)))
                }
            }
        }

        /// `passkey methods delete ID` (auth0-passkey-api.md §5.5).
        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Delete one of the user's authentication methods (the device keeps its passkey).")

            @OptionGroup var auth0: Auth0Options

            @Argument(help: "The method's ID, as `passkey methods` lists it.")
            var id: String

            func run() async throws {
                try await runningFlow("methods delete", auth0) { user in
                    try await user.deleteAuthenticationMethod(id: id)
                    return DeletedMethodOutcome(deleted: id)
                }
            }
        }
    }
}
