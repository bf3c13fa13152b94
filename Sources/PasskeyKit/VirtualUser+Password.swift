import Auth0Passkeys

extension VirtualUser {
    /// The connection a password signup creates the user in when the tenant names none: Auth0's
    /// default database connection, Auth0.swift's default too.
    public static let defaultDatabaseConnection = "Username-Password-Authentication"

    /// Signs the user up with a password in the tenant's database connection, then logs in with
    /// it: `POST /dbconnections/signup`, then the password-realm grant, the credentials kept as
    /// the session. What an app's "Sign up" form does before passkeys; the user can then
    /// ``enroll(from:)`` a passkey and stays the same user (`auth0|…`).
    ///
    /// ```swift
    /// try await user.signUp(email: "ada@example.com", password: password)
    /// try await user.enroll(from: phone)
    /// try await user.logIn()  // with the passkey
    /// try await user.logIn(usernameOrEmail: "ada@example.com", password: password)
    /// ```
    ///
    /// - Parameters:
    ///   - email: the new user's email.
    ///   - password: the new user's password; it is sent, never kept.
    ///   - username: the username, when the connection requires one.
    ///   - userMetadata: `user_metadata`.
    ///   - captcha: the answer to the tenant's CAPTCHA, when its bot detection asks for one.
    /// - Returns: the user the tenant created, and the session's user and credentials.
    /// - Throws: ``PasskeyFlowError/authentication(_:)``: the signup refused (`invalid_password`,
    ///   `user_exists`, `requires_verification`, …) or the login; ``PasskeyFlowError/session(_:)``.
    @discardableResult
    public func signUp(
        email: String, password: String, username: String? = nil, userMetadata: [String: String]? = nil,
        captcha: String? = nil
    ) async throws(PasskeyFlowError) -> PasswordSignUpResult {
        let created = try await loginAuthentication.signup(
            email: email, username: username, password: password,
            connection: tenant.connection ?? Self.defaultDatabaseConnection, userMetadata: userMetadata,
            captcha: captcha
        ).start(as: PasskeyFlowError.authentication)
        let login = try await logIn(usernameOrEmail: email, password: password, captcha: captcha)
        return PasswordSignUpResult(created: created, user: login.user, credentials: login.credentials)
    }

    /// Logs in with a password and keeps the credentials as the session: the password-realm grant
    /// with the tenant's connection as `realm`, or, when the tenant names none, the plain
    /// `password` grant on its default directory.
    ///
    /// - Parameters:
    ///   - identifier: the user's email or username.
    ///   - password: the password; it is sent, never kept.
    ///   - captcha: the answer to the tenant's CAPTCHA, when its bot detection asks for one.
    /// - Returns: the user and the credentials.
    /// - Throws: ``PasskeyFlowError/authentication(_:)`` (`invalid_grant` for a wrong password,
    ///   `too_many_attempts`, `requires_verification`), ``PasskeyFlowError/session(_:)``.
    @discardableResult
    public func logIn(usernameOrEmail identifier: String, password: String, captcha: String? = nil)
        async throws(PasskeyFlowError) -> PasswordLogInResult
    {
        let request =
            if let connection = tenant.connection {
                loginAuthentication.login(
                    usernameOrEmail: identifier, password: password, realmOrConnection: connection,
                    audience: tenant.audience, scope: tenant.scope, captcha: captcha)
            } else {
                loginAuthentication.loginDefaultDirectory(
                    withUsername: identifier, password: password, audience: tenant.audience, scope: tenant.scope,
                    captcha: captcha)
            }
        let credentials = try await request.start(as: PasskeyFlowError.authentication)
        return PasswordLogInResult(user: try await startSession(credentials), credentials: credentials)
    }
}
