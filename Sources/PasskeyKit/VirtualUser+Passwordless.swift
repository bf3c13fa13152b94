public import Auth0Passkeys

extension VirtualUser {
    /// Asks the tenant to send a one-time code to `email` (`POST /passwordless/start`,
    /// `connection=email`, `send=code`), as an app's "Email me a code" button does.
    ///
    /// - Parameter email: the address.
    /// - Throws: ``PasskeyFlowError/authentication(_:)`` when the tenant refuses.
    public func startPasswordless(email: String) async throws(PasskeyFlowError) {
        try await loginAuthentication.startPasswordless(email: email).start(as: PasskeyFlowError.authentication)
    }

    /// Asks the tenant to send a one-time code to `phoneNumber` by SMS (`connection=sms`).
    ///
    /// - Parameter phoneNumber: the number, E.164.
    /// - Throws: ``PasskeyFlowError/authentication(_:)`` when the tenant refuses.
    public func startPasswordless(phoneNumber: String) async throws(PasskeyFlowError) {
        try await loginAuthentication.startPasswordless(phoneNumber: phoneNumber).start(
            as: PasskeyFlowError.authentication)
    }

    /// Logs in with the code sent to `email` (the passwordless OTP grant, `realm=email`) and keeps
    /// the credentials as the session, as every login does.
    ///
    /// ```swift
    /// try await user.startPasswordless(email: "ada@example.com")
    /// let result = try await user.logIn(email: "ada@example.com", code: try await tenant.latestCode(sentTo: "ada@example.com"))
    /// ```
    ///
    /// - Parameters:
    ///   - email: the address the code went to.
    ///   - code: the code.
    /// - Returns: the user and the credentials.
    /// - Throws: ``PasskeyFlowError/authentication(_:)`` with `invalid_grant` for a wrong, used,
    ///   expired or void code; ``PasskeyFlowError/session(_:)`` when the session cannot be kept.
    @discardableResult
    public func logIn(email: String, code: String) async throws(PasskeyFlowError) -> CodeLogInResult {
        try await keep(
            loginAuthentication.login(email: email, code: code, audience: tenant.audience, scope: tenant.scope))
    }

    /// Logs in with the code sent to `phoneNumber` (the passwordless OTP grant, `realm=sms`).
    ///
    /// - Parameters:
    ///   - phoneNumber: the number the code went to.
    ///   - code: the code.
    /// - Returns: the user and the credentials.
    /// - Throws: as ``logIn(email:code:)``.
    @discardableResult
    public func logIn(phoneNumber: String, code: String) async throws(PasskeyFlowError) -> CodeLogInResult {
        try await keep(
            loginAuthentication.login(
                phoneNumber: phoneNumber, code: code, audience: tenant.audience, scope: tenant.scope))
    }

    private func keep(_ request: Request<Credentials, AuthenticationError>) async throws(PasskeyFlowError)
        -> CodeLogInResult
    {
        let credentials = try await request.start(as: PasskeyFlowError.authentication)
        return CodeLogInResult(user: try await startSession(credentials), credentials: credentials)
    }
}
