import Auth0Passkeys
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// Issue 41's migration story with the library alone, against a local tenant on loopback with the
/// real libcurl client: a password user signs up and logs in with the password, enrolls a passkey
/// through My Account, logs in with it natively and on the login page, and the password still
/// works; one user (`auth0|…`) throughout. The user then reads and writes their `user_metadata`
/// and links a passwordless (email code) account to theirs, after which the code, the password and
/// the passkey all log the same user in. Then each refusal of the slice, as Auth0 answers it.
@Suite struct PasswordMigrationTests {
    static let password = "Correct-Horse-9-staple"
    static let callback = "http://127.0.0.1/callback"

    /// Runs `body` with a fresh tenant (its database connection changed by `change`), served on a
    /// free port; scrypt at N = 2^12 so that the suite's hashes stay cheap.
    private func withTenant(
        _ change: (inout DatabaseConnectionOptions) -> Void = { _ in },
        _ body: @Sendable (Tenant) async throws -> Void
    ) async throws {
        var configuration = TenantConfiguration()
        configuration.databaseConnection.passwordHashLogN = 12
        configuration.outbox.servesTestRoute = true
        change(&configuration.databaseConnection)
        let tenant = try await PasskeyTenant(configuration: configuration, database: ":memory:")
        try await tenant.serving { endpoint in
            try await body(try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL))
        }
    }

    @Test func aPasswordUserAddsAPasskeyAndLogsInWithEither() async throws {
        try await withTenant { tenant in
            let phone = VirtualDevice(store: InMemoryCredentialStore())
            let user = VirtualUser(tenant: tenant, device: phone)

            let signup = try await user.signUp(
                email: "ada@example.com", password: Self.password, userMetadata: ["plan": "trial"])
            let sub = signup.user.sub
            #expect(sub.hasPrefix("auth0|") && signup.created.email == "ada@example.com")
            #expect(signup.created.id.map { "auth0|" + $0 } == sub)
            #expect(try await phone.store?.summaries(rpID: "localhost").isEmpty == true)

            try await user.logOut(revoke: true)
            let byPassword = try await user.logIn(usernameOrEmail: "ada@example.com", password: Self.password)
            #expect(byPassword.user.sub == sub && byPassword.credentials.refreshToken != nil)

            let enrolled = try await user.enroll(from: phone)
            #expect(enrolled.method.relyingPartyIdentifier == "localhost")
            #expect(try await user.authenticationMethods(type: "passkey").count == 1)

            try await user.logOut(revoke: true)
            let byPasskey = try await user.logIn()
            #expect(byPasskey.user.sub == sub && byPasskey.credentialID == enrolled.credentialID)

            let onThePage = try await user.logInOnTheWeb(
                redirectURL: Self.callback, using: LoginPageUserAgent(device: phone))
            #expect(onThePage.user.sub == sub)
            // The same page offers the password beside the passkey, as Universal Login does.
            let form = LoginPageUserAgent.Ceremony.password(
                identifier: "ada@example.com", password: Passphrase(Self.password), signUp: false)
            let passwordOnThePage = try await user.logInOnTheWeb(
                redirectURL: Self.callback, parameters: ["prompt": "login"],
                using: LoginPageUserAgent(device: phone, ceremony: form))
            #expect(passwordOnThePage.user.sub == sub)

            let again = try await user.logIn(usernameOrEmail: "ada@example.com", password: Self.password)
            #expect(again.user.sub == sub)

            #expect(try await user.userMetadata() == ["plan": .string("trial")])
            #expect(
                try await user.updateUserMetadata(["plan": .null, "theme": .string("dark")]) == [
                    "theme": .string("dark")
                ])
            #expect(try await user.userMetadata() == ["theme": .string("dark")])

            // A second identity: a passwordless account, logged in by the code the email carried.
            let mail = VirtualUser(tenant: tenant, device: nil)
            try await mail.startPasswordless(email: "ada@example.com")
            let byCode = try await mail.logIn(
                email: "ada@example.com", code: try await tenant.latestCode(sentTo: "ada@example.com"))
            let mailSub = byCode.user.sub
            #expect(mailSub.hasPrefix("email|"))

            let identities = try await user.link(withOtherUserToken: try await mail.credentials().idToken)
            #expect(identities.map { $0.provider + "|" + $0.userId } == [sub, mailSub])

            try await mail.logOut(revoke: true)
            try await mail.startPasswordless(email: "ada@example.com")
            let linked = try await mail.logIn(
                email: "ada@example.com", code: try await tenant.latestCode(sentTo: "ada@example.com"))
            #expect(linked.user.sub == sub)
            #expect(try await mail.userMetadata() == ["theme": .string("dark")])
            try await user.logOut(revoke: true)
            #expect(try await user.logIn(usernameOrEmail: "ada@example.com", password: Self.password).user.sub == sub)
            #expect(try await user.logIn().user.sub == sub)
        }
    }

    @Test func theDefaultDirectoryAndAUsernameLogTheSameUserIn() async throws {
        try await withTenant { tenant in
            let user = VirtualUser(tenant: tenant, device: nil)
            let signup = try await user.signUp(email: "grace@example.com", password: Self.password, username: "grace")
            #expect(signup.created.username == "grace")
            var named = tenant
            named.connection = "Username-Password-Authentication"
            let byUsername = try await VirtualUser(tenant: named, device: nil).logIn(
                usernameOrEmail: "grace", password: Self.password)
            #expect(byUsername.user.sub == signup.user.sub)
        }
    }

    @Test func aWrongPasswordIsInvalidCredentials() async throws {
        try await withTenant { tenant in
            let user = VirtualUser(tenant: tenant, device: nil)
            try await user.signUp(email: "ada@example.com", password: Self.password)
            for identifier in ["ada@example.com", "nobody@example.com"] {
                let error = try await Self.refusal {
                    try await user.logIn(usernameOrEmail: identifier, password: "Wrong-Horse-9-staple")
                }
                #expect(error.isInvalidCredentials && error.statusCode == 403, "\(error)")
            }
        }
    }

    @Test func aWeakPasswordAndATakenEmailAreRefusedAtSignup() async throws {
        try await withTenant { tenant in
            let user = VirtualUser(tenant: tenant, device: nil)
            let weak = try await Self.refusal { try await user.signUp(email: "ada@example.com", password: "short") }
            #expect(weak.isPasswordNotStrongEnough && weak.statusCode == 400, "\(weak)")
            try await user.signUp(email: "ada@example.com", password: Self.password)
            let taken = try await Self.refusal {
                try await user.signUp(email: "ada@example.com", password: Self.password)
            }
            #expect(taken.code.rawValue == "user_exists" && taken.statusCode == 400, "\(taken)")
        }
    }

    @Test func botDetectionWantsTheCaptchaAnswer() async throws {
        try await withTenant({
            $0.botDetection = .always
            $0.captchaAnswer = Secret("four")
        }) { tenant in
            let user = VirtualUser(tenant: tenant, device: nil)
            let missing = try await Self.refusal {
                try await user.signUp(email: "ada@example.com", password: Self.password)
            }
            #expect(missing.isVerificationRequired, "\(missing)")
            try await user.signUp(email: "ada@example.com", password: Self.password, captcha: "four")
            let wrong = try await Self.refusal {
                try await user.logIn(usernameOrEmail: "ada@example.com", password: Self.password, captcha: "five")
            }
            #expect(wrong.isVerificationRequired, "\(wrong)")
            try await user.logIn(usernameOrEmail: "ada@example.com", password: Self.password, captcha: "four")
        }
    }

    @Test func resetPasswordIsAnsweredForAnyEmail() async throws {
        try await withTenant { tenant in
            let user = VirtualUser(tenant: tenant, device: nil)
            try await user.signUp(email: "ada@example.com", password: Self.password)
            for email in ["ada@example.com", "nobody@example.com"] {
                try await tenant.authentication.resetPassword(
                    email: email, connection: "Username-Password-Authentication"
                ).start()
            }
        }
    }

    /// The tenant's refusal of `body`.
    private static func refusal<Value>(
        _ body: () async throws -> Value, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> AuthenticationError {
        let error = await #expect(throws: PasskeyFlowError.self, sourceLocation: sourceLocation) {
            _ = try await body()
        }
        return try #require(error?.underlying as? AuthenticationError, sourceLocation: sourceLocation)
    }
}
