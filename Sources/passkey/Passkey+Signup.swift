import ArgumentParser
import PasskeyAuthenticator
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
                --json. A passkey the tenant refuses is deleted again. With --web, signs up on the tenant's \
                login page instead (Web Auth, screen_hint=signup, --email pre-filled), in the desktop's browser or \
                in one started with --browser whose passkey requests the store answers. With --dpop the tokens \
                are DPoP-bound, as for login.
                """)

        @OptionGroup var auth0: Auth0Options
        @OptionGroup var device: DeviceOptions
        @OptionGroup var protection: SessionProtectionOptions
        @OptionGroup var webLogin: WebLoginOptions

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

        @Flag(
            help:
                "Ask for DPoP-bound tokens (RFC 9449): the session keeps a P-256 key, and later commands sign with it."
        )
        var dpop = false

        func validate() throws {
            if webLogin.web, phone != nil || username != nil || name != nil {
                throw ValidationError("with --web the tenant's page asks for the email only: give --email")
            }
            guard email != nil || phone != nil || username != nil else {
                throw ValidationError("give --email, --phone or --username")
            }
        }

        func run() async throws {
            if webLogin.web {
                try await runningFlow("signup", auth0, dpop: dpop) { user in
                    let result = try await webLogin.logIn(
                        user, signUp: true, loginHint: email, choosing: .mostRecent, store: auth0.store,
                        profile: device.profile)
                    try await protection.apply(to: user)
                    return WebLoginOutcome(
                        result, signUp: true, browser: webLogin.browser, showTokens: showTokens || auth0.json)
                }
                return
            }
            try await runningFlow("signup", auth0, dpop: dpop) { user in
                let result = try await user.signUp(
                    email: email, name: name, phone: phone, username: username,
                    on: try await device.device(store: auth0.store.open()))
                try await protection.apply(to: user)
                return SignupOutcome(result, showTokens: showTokens || auth0.json)
            }
        }
    }
}
