import ArgumentParser
import PasskeyKit

extension Passkey {
    /// `passkey whoami`: the signed-in user.
    struct Whoami: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the signed-in user: from the stored ID token, or from /userinfo with --refresh.")

        @OptionGroup var auth0: Auth0Options

        @Flag(help: "Ask the tenant's /userinfo with the access token (renewed if need be).")
        var refresh = false

        func run() async throws {
            try await runningFlow("whoami", auth0) { user in
                refresh
                    ? WhoamiOutcome(try await user.userInfo(), source: "userinfo")
                    : WhoamiOutcome(try await user.storedUser(), source: "id_token")
            }
        }
    }
}
