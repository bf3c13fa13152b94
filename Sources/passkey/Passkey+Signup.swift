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
                are DPoP-bound, as for login. With --password-stdin, signs up in the database connection with the \
                password on standard input's first line instead (POST /dbconnections/signup, --email and \
                optionally --username), then logs in with it; a passkey can be added later with enroll.
                """)

        @OptionGroup var session: SessionFlowOptions

        @Option(help: "The new user's email.")
        var email: String?

        @Option(help: "The new user's full name.")
        var name: String?

        @Option(help: "The new user's phone number (E.164).")
        var phone: String?

        @Option(help: "The new user's username.")
        var username: String?

        @OptionGroup var password: PasswordInputOptions

        @OptionGroup var tokens: TokenOptions

        func validate() throws {
            if password.passwordStdin {
                guard email != nil, phone == nil, name == nil, !session.webLogin.web else {
                    throw ValidationError("--password-stdin signs up with --email (and --username); not --web")
                }
            }
            if session.webLogin.web, phone != nil || username != nil || name != nil {
                throw ValidationError("with --web the tenant's page asks for the email only: give --email")
            }
            guard email != nil || phone != nil || username != nil else {
                throw ValidationError("give --email, --phone or --username")
            }
        }

        func run() async throws {
            if password.passwordStdin, let email {
                let secret = try password.password()
                try await session.runWithPassword("signup", tokens: tokens) { user, showTokens in
                    PasswordOutcome(
                        try await user.signUp(email: email, password: secret, username: username),
                        showTokens: showTokens)
                }
                return
            }
            try await session.run("signup", tokens: tokens, signUp: true, loginHint: email, choosing: .mostRecent) {
                user, device, showTokens in
                SignupOutcome(
                    try await user.signUp(email: email, name: name, phone: phone, username: username, on: device),
                    showTokens: showTokens)
            }
        }
    }
}
