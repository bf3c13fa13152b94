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
                signed by it: call APIs with passkey api. With --sso, a session transfer token instead (Native to \
                Web SSO, used once within a minute): with --sso-url URL, that URL with session_transfer_token= \
                added, to open in a browser where it logs the user in to the web application without a login.
                """)

        @OptionGroup var auth0: Auth0Options

        @Flag(help: "Print a session transfer token for web single sign-on instead of an access token.")
        var sso = false

        @Option(
            name: .customLong("sso-url"),
            help: "With --sso: the web application's login URL (or the tenant's /authorize URL) to add the token to.")
        var ssoURL: String?

        func validate() throws {
            if ssoURL != nil, !sso { throw ValidationError("--sso-url goes with --sso.") }
            if sso, auth0.audience != nil { throw ValidationError("--sso takes no --audience.") }
        }

        func run() async throws {
            if sso {
                try await runningFlow("token", auth0) { user in
                    SSOOutcome(try await user.ssoCredentials(), url: ssoURL)
                }
                return
            }
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
