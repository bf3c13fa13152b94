public import WebAuthn

extension Authentication {
    /// Logs a database user in with their password: `POST /oauth/token` with Auth0's
    /// `http://auth0.com/oauth/grant-type/password-realm` grant, the Resource Owner Password grant
    /// of RFC 6749 §4.3 with a `realm` naming the database connection. Auth0.swift's
    /// `login(usernameOrEmail:password:realmOrConnection:audience:scope:)`.
    ///
    /// ```swift
    /// let credentials = try await auth.login(
    ///     usernameOrEmail: "ada@example.com", password: password,
    ///     realmOrConnection: "Username-Password-Authentication"
    /// ).start()
    /// ```
    ///
    /// A wrong password answers `invalid_grant` "Wrong email or password."
    /// (``AuthenticationError/isInvalidCredentials``); too many in a row, `too_many_attempts`
    /// (``AuthenticationError/isTooManyAttempts``); a tenant whose bot detection wants a CAPTCHA
    /// answer and got none or a wrong one, `requires_verification`
    /// (``AuthenticationError/isVerificationRequired``). The password and the captcha answer are
    /// `<redacted>` in the wire trace. Never retried: every attempt counts against the tenant's
    /// attempt limiter.
    ///
    /// - Parameters:
    ///   - username: the user's email or username.
    ///   - password: the user's password.
    ///   - realm: the database connection (`realm`), such as `Username-Password-Authentication`.
    ///   - audience: the API the access token is for.
    ///   - scope: the scopes; `openid` is added when missing.
    ///   - captcha: the answer to the tenant's CAPTCHA (`captcha`), when bot detection asks for one.
    /// - Returns: the request; it decodes ``Credentials``.
    public func login(
        usernameOrEmail username: String, password: String, realmOrConnection realm: String,
        audience: String? = nil, scope: String = Authentication.defaultScope, captcha: String? = nil
    ) -> Request<Credentials, AuthenticationError> {
        let body = TokenGrantBody(
            grantType: .passwordRealm, clientId: clientId, scope: Scope.includingOpenID(scope), realm: realm,
            audience: audience, username: username, password: password, captcha: captcha)
        return post("oauth/token", body, retryable: false, Self.credentials)
    }

    /// Logs a user of the tenant's default directory in with their password: `POST /oauth/token`
    /// with `grant_type=password` (RFC 6749 §4.3.2), no connection named. Auth0.swift's
    /// `loginDefaultDirectory(withUsername:password:audience:scope:)`.
    ///
    /// Auth0 reads the connection from the tenant's Default Directory setting; the local tenant
    /// uses its database connection. Errors and redaction as
    /// ``login(usernameOrEmail:password:realmOrConnection:audience:scope:captcha:)``.
    ///
    /// - Parameters:
    ///   - username: the user's email or username.
    ///   - password: the user's password.
    ///   - audience: the API the access token is for.
    ///   - scope: the scopes; `openid` is added when missing.
    ///   - captcha: the answer to the tenant's CAPTCHA, when bot detection asks for one.
    /// - Returns: the request; it decodes ``Credentials``.
    public func loginDefaultDirectory(
        withUsername username: String, password: String, audience: String? = nil,
        scope: String = Authentication.defaultScope, captcha: String? = nil
    ) -> Request<Credentials, AuthenticationError> {
        let body = TokenGrantBody(
            grantType: .password, clientId: clientId, scope: Scope.includingOpenID(scope), audience: audience,
            username: username, password: password, captcha: captcha)
        return post("oauth/token", body, retryable: false, Self.credentials)
    }

    /// Creates a user in a database connection: `POST /dbconnections/signup`. Auth0.swift's
    /// `signup(email:username:password:connection:userMetadata:rootAttributes:)`.
    ///
    /// ```swift
    /// let user = try await auth.signup(
    ///     email: "ada@example.com", password: password, userMetadata: ["plan": "trial"]).start()
    /// let credentials = try await auth.login(
    ///     usernameOrEmail: user.email, password: password,
    ///     realmOrConnection: "Username-Password-Authentication").start()
    /// ```
    ///
    /// No tokens: log in afterwards. The refusals come in the endpoint's own shape
    /// (`{"name", "code", "description", "statusCode"}`): a password the connection's policy
    /// refuses is `invalid_password` named `PasswordStrengthError`
    /// (``AuthenticationError/isPasswordNotStrongEnough``, with the policy in `info["policy"]`), a
    /// taken email or username `user_exists`, anything else `invalid_signup`; bot detection
    /// answers `requires_verification`. Never retried: a signup creates a user.
    ///
    /// - Parameters:
    ///   - email: the new user's email.
    ///   - username: the new user's username, when the connection requires one.
    ///   - password: the new user's password.
    ///   - connection: the database connection.
    ///   - userMetadata: `user_metadata`: at most 10 string members.
    ///   - rootAttributes: more top-level members (`given_name`, `name`, `picture`, …); a member
    ///     this call already sends is not overwritten.
    ///   - captcha: the answer to the tenant's CAPTCHA, when bot detection asks for one.
    /// - Returns: the request; it decodes a ``DatabaseUser``.
    public func signup(
        email: String, username: String? = nil, password: String,
        connection: String = "Username-Password-Authentication", userMetadata: [String: String]? = nil,
        rootAttributes: [String: JSONValue]? = nil, captcha: String? = nil
    ) -> Request<DatabaseUser, AuthenticationError> {
        var members = JSONObject.members(
            of: DatabaseSignupBody(
                clientId: clientId, email: email, username: username, password: password, connection: connection,
                userMetadata: userMetadata, captcha: captcha))
        for (name, value) in rootAttributes ?? [:] where members[name] == nil {
            members[name] = value
        }
        return post(
            "dbconnections/signup", members, retryable: false,
            ResponseHandling.json(DatabaseUser.self, AuthenticationError.self))
    }

    /// Asks for a password change email: `POST /dbconnections/change_password`. Auth0.swift's
    /// `resetPassword(email:connection:organization:)`.
    ///
    /// Auth0 answers 200 with a sentence in plain text whether the email is known or not, so the
    /// answer tells nothing about who has an account; the local tenant writes the reset link to
    /// its outbox instead of mailing it. Never retried: each call sends a message.
    ///
    /// - Parameters:
    ///   - email: the user's email.
    ///   - connection: the database connection.
    ///   - organization: the organization the reset link logs into, if any.
    /// - Returns: the request; any success answers, whatever the body.
    public func resetPassword(
        email: String, connection: String, organization: String? = nil
    ) -> Request<Void, AuthenticationError> {
        post(
            "dbconnections/change_password",
            PasswordChangeBody(clientId: clientId, email: email, connection: connection, organization: organization),
            retryable: false, ResponseHandling.none(AuthenticationError.self))
    }
}

/// `POST /dbconnections/signup`'s own members; `Authentication.signup` adds the root attributes.
struct DatabaseSignupBody: Encodable {
    let clientId: String
    let email: String
    let username: String?
    let password: String
    let connection: String
    let userMetadata: [String: String]?
    let captcha: String?

    enum CodingKeys: String, CodingKey {
        case clientId = "client_id"
        case email, username, password, connection, captcha
        case userMetadata = "user_metadata"
    }
}

/// `POST /dbconnections/change_password`.
struct PasswordChangeBody: Encodable {
    let clientId: String
    let email: String
    let connection: String
    let organization: String?

    enum CodingKeys: String, CodingKey {
        case clientId = "client_id"
        case email, connection, organization
    }
}
