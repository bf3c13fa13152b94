extension Authentication {
    /// Sends a one-time code (or a link) to an email address: `POST /passwordless/start` with
    /// `connection`, `email`, `send` and `client_id`, as Auth0.swift's `startPasswordless(email:type:connection:)`.
    ///
    /// ```swift
    /// try await auth.startPasswordless(email: "ada@example.com").start()
    /// // … the code arrives by email (on the local tenant: in its outbox) …
    /// let credentials = try await auth.login(email: "ada@example.com", code: "123456").start()
    /// ```
    ///
    /// Never retried: each start sends a new code, which voids the last one.
    ///
    /// - Parameters:
    ///   - email: where the code or link goes.
    ///   - type: a code by default.
    ///   - connection: the passwordless connection; `email` by default.
    /// - Returns: the request; any success answers, whatever the body.
    public func startPasswordless(email: String, type: PasswordlessType = .code, connection: String = "email")
        -> Request<Void, AuthenticationError>
    {
        post(
            "passwordless/start",
            PasswordlessStartBody(clientId: clientId, connection: connection, send: type.rawValue, email: email),
            retryable: false, ResponseHandling.none(AuthenticationError.self))
    }

    /// Sends a one-time code by SMS: `POST /passwordless/start` with `connection`, `phone_number`,
    /// `send` and `client_id`, as Auth0.swift's `startPasswordless(phoneNumber:type:connection:)`.
    ///
    /// - Parameters:
    ///   - phoneNumber: the number, E.164 (`+15555550100`).
    ///   - type: a code by default.
    ///   - connection: the passwordless connection; `sms` by default.
    /// - Returns: the request; any success answers, whatever the body.
    public func startPasswordless(phoneNumber: String, type: PasswordlessType = .code, connection: String = "sms")
        -> Request<Void, AuthenticationError>
    {
        post(
            "passwordless/start",
            PasswordlessStartBody(
                clientId: clientId, connection: connection, send: type.rawValue, phoneNumber: phoneNumber),
            retryable: false, ResponseHandling.none(AuthenticationError.self))
    }

    /// Logs in with the code an email brought: `POST /oauth/token` with the passwordless OTP grant
    /// (`http://auth0.com/oauth/grant-type/passwordless/otp`, `realm=email`), as Auth0.swift's
    /// `login(email:code:audience:scope:)`.
    ///
    /// Never retried: a code is used once, and three wrong ones void it.
    ///
    /// - Parameters:
    ///   - email: the address the code went to.
    ///   - code: the code.
    ///   - audience: the API the access token is for.
    ///   - scope: the scopes; `openid` is added when missing.
    /// - Returns: the request; it decodes ``Credentials``. A wrong, used or expired code fails with
    ///   `invalid_grant` (``AuthenticationError/isInvalidCredentials``).
    public func login(email: String, code: String, audience: String? = nil, scope: String = Authentication.defaultScope)
        -> Request<Credentials, AuthenticationError>
    {
        passwordlessGrant(username: email, code: code, realm: "email", audience: audience, scope: scope)
    }

    /// Logs in with the code an SMS brought: the passwordless OTP grant with `realm=sms`, as
    /// Auth0.swift's `login(phoneNumber:code:audience:scope:)`.
    ///
    /// - Parameters:
    ///   - phoneNumber: the number the code went to.
    ///   - code: the code.
    ///   - audience: the API the access token is for.
    ///   - scope: the scopes; `openid` is added when missing.
    /// - Returns: the request; it decodes ``Credentials``.
    public func login(
        phoneNumber: String, code: String, audience: String? = nil, scope: String = Authentication.defaultScope
    ) -> Request<Credentials, AuthenticationError> {
        passwordlessGrant(username: phoneNumber, code: code, realm: "sms", audience: audience, scope: scope)
    }

    private func passwordlessGrant(username: String, code: String, realm: String, audience: String?, scope: String)
        -> Request<Credentials, AuthenticationError>
    {
        var body = TokenGrantBody(
            grantType: .passwordlessOTP, clientId: clientId, scope: Scope.includingOpenID(scope), realm: realm,
            audience: audience)
        body.username = username
        body.otp = code
        return post("oauth/token", body, retryable: false, Self.credentials)
    }
}

/// `POST /passwordless/start` (Auth0's "Get Code or Link").
struct PasswordlessStartBody: Encodable {
    let clientId: String
    let connection: String
    let send: String
    var email: String? = nil
    var phoneNumber: String? = nil

    enum CodingKeys: String, CodingKey {
        case clientId = "client_id"
        case phoneNumber = "phone_number"
        case connection, send, email
    }
}
