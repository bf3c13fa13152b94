import ArgumentParser
import PasskeyKit

extension Passkey {
    /// `passkey logout`: end the session.
    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forget the session; with --revoke, revoke its refresh token at the tenant first.")

        @OptionGroup var auth0: Auth0Options

        @Flag(help: "Revoke the refresh token (POST /oauth/revoke) before forgetting the session.")
        var revoke = false

        func run() async throws {
            try await runningFlow("logout", auth0) { user in LogoutOutcome(try await user.logOut(revoke: revoke)) }
        }
    }
}
