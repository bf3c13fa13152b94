import ArgumentParser
import PasskeyAuthenticator
import PasskeyKit
import WebAuthn

extension Passkey {
    /// `passkey login`: sign in with a passkey of the store, as an app's "Sign in" button does.
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Log in with a passkey (Auth0 native passkey login).",
            discussion: """
                Asks the tenant for a login challenge, signs it with a discoverable passkey of the store (with \
                several, --user or --credential picks one, else the most recently created is used and named), \
                exchanges the assertion for tokens and keeps them as the session. With --web, logs in on the \
                tenant's login page instead (Web Auth: /authorize with PKCE, the redirect heard on 127.0.0.1, the \
                code exchanged, the ID token validated): in the desktop's browser, or in one started with \
                --browser whose passkey autofill the store answers with the passkey --user or --credential picks. \
                With --dpop the tokens are DPoP-bound (token_type DPoP): a P-256 key made for the session signs a \
                proof for every token request; it is sealed with the session, and token, whoami, api, methods and \
                logout use it. With --password-stdin, logs in with the password on standard input's first line \
                instead (the password-realm grant with --connection, else the plain password grant), naming the \
                user with --email or --username. With --otp, logs in with a one-time code sent to --email or \
                --phone (passwordless), read from standard input or, with --code-from-outbox, from the local \
                tenant's outbox.
                """)

        @OptionGroup var session: SessionFlowOptions

        @Option(help: "Use the passkey of this user (its account name) when several match.")
        var user: String?

        @Option(help: "Use this passkey (credential ID, base64url).")
        var credential: String?

        @Option(help: "With --password-stdin: the user's email; with --otp: the address the code goes to.")
        var email: String?

        @Option(help: "With --password-stdin: the user's username.")
        var username: String?

        @OptionGroup var password: PasswordInputOptions

        @OptionGroup var tokens: TokenOptions

        @OptionGroup var oneTimeCode: OTPLoginOptions

        func validate() throws {
            try oneTimeCode.validate(email: email)
            if oneTimeCode.otp {
                guard username == nil, !password.passwordStdin, user == nil, credential == nil, !session.webLogin.web
                else {
                    throw ValidationError(
                        "--otp logs in with a code: not with --username, --password-stdin, --user, --credential or --web"
                    )
                }
            } else if password.passwordStdin {
                guard (email == nil) != (username == nil) else {
                    throw ValidationError("--password-stdin names the user with --email or --username (one of them)")
                }
                guard user == nil, credential == nil, !session.webLogin.web else {
                    throw ValidationError(
                        "--password-stdin logs in with a password: not with --user, --credential or --web")
                }
            } else if email != nil || username != nil {
                throw ValidationError(
                    "--email and --username go with --password-stdin; --email and --phone go with --otp")
            }
            if user != nil, credential != nil {
                throw ValidationError("--user and --credential each pick a passkey; give one of them")
            }
            if let credential, (try? Base64URL.decode(credential)) == nil {
                throw ValidationError("--credential is a credential ID in base64url")
            }
        }

        func run() async throws {
            if oneTimeCode.otp {
                try await oneTimeCode.run(session, email: email, tokens: tokens)
                return
            }
            if password.passwordStdin, let identifier = email ?? username {
                let secret = try password.password()
                try await session.runWithPassword("login", tokens: tokens) { user, showTokens in
                    PasswordOutcome(
                        try await user.logIn(usernameOrEmail: identifier, password: secret), showTokens: showTokens)
                }
                return
            }
            // validate() checked the credential ID.
            let choice: AccountChoice =
                user.map { .user($0) } ?? credential.map { .credential(try! Base64URL.decode($0)) } ?? .mostRecent
            try await session.run("login", tokens: tokens, signUp: false, loginHint: user, choosing: choice) {
                user, device, showTokens in
                LoginOutcome(try await user.logIn(choosing: choice, on: device), choice: choice, showTokens: showTokens)
            }
        }
    }
}
