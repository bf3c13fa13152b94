import ArgumentParser
import PasskeyKit

extension Passkey {
    /// `passkey signup`: sign a new user up with a new passkey, as an app's "Sign up" button does.
    struct Signup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign a new user up with a new passkey (Auth0 native passkey signup).",
            discussion: """
                Asks the tenant for a signup challenge, creates the passkey in the store with the origin \
                https://<rpId> (a native app's), exchanges it for tokens and keeps them as the session. Prints \
                who signed up and until when the access token is valid; the tokens only with --show-tokens or \
                --json. A passkey the tenant refuses is deleted again.
                """)

        @OptionGroup var auth0: Auth0Options
        @OptionGroup var device: DeviceOptions
        @OptionGroup var protection: SessionProtectionOptions

        @Option(help: "The new user's email.")
        var email: String?

        @Option(help: "The new user's full name.")
        var name: String?

        @Option(help: "The new user's phone number (E.164).")
        var phone: String?

        @Option(help: "The new user's username.")
        var username: String?

        @Flag(name: .customLong("show-tokens"), help: "Print the tokens.")
        var showTokens = false

        func validate() throws {
            guard email != nil || phone != nil || username != nil else {
                throw ValidationError("give --email, --phone or --username")
            }
        }

        func run() async throws {
            try await runningFlow("signup", auth0) { user in
                let result = try await user.signUp(
                    email: email, name: name, phone: phone, username: username,
                    on: try await device.device(store: auth0.store.open()))
                try await protection.apply(to: user)
                return SignupOutcome(result, showTokens: showTokens || auth0.json)
            }
        }
    }
}
