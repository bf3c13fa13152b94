import ArgumentParser
import PasskeyKit

extension Passkey {
    /// `passkey token`: a valid access token, for scripts.
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a valid access token, renewing it if need be.",
            discussion: """
                For scripts: curl -H "Authorization: Bearer $(passkey token)" URL. The session's token, renewed \
                when it expires within a minute; with --audience, a token for that API exchanged from the refresh \
                token (and kept until it expires). --scope asks for those scopes. A DPoP session's token \
                (login --dpop; token_type DPoP in --json) is bound to the session's key and useless without a proof \
                signed by it: call APIs with passkey api.
                """)

        @OptionGroup var auth0: Auth0Options

        func run() async throws {
            try await runningFlow("token", auth0) { user in
                if let audience = auth0.audience {
                    TokenOutcome(
                        try await user.apiCredentials(audience: audience, scope: auth0.scope), audience: audience)
                } else {
                    TokenOutcome(try await user.credentials(withScope: auth0.scope), audience: nil)
                }
            }
        }
    }
}
