import FoundationEssentials

extension DatabaseConnectionsAPI {
    /// `POST /dbconnections/signup`: a new user of the database connection with a password, as
    /// Auth0 answers it (``DatabaseSignupRequest``, ``DatabaseSignupResponse``). The user has no
    /// passkey yet; one can be enrolled through My Account, and the user stays the same.
    ///
    /// The checks, in order: the client, the connection, bot detection's CAPTCHA, the password
    /// (present, then the connection's policy), identifiers taken already, then the profile and
    /// metadata rules every signup keeps (``TenantServices/newUser(profile:metadata:connection:)``).
    ///
    /// - Throws: `invalid_client` (401); `bad.connection` for another connection or one without
    ///   passwords; `requires_verification` without the CAPTCHA answer while bot detection is on;
    ///   `invalid_signup` for a missing password, a missing or malformed identifier, or bad
    ///   metadata; ``PasswordStrengthError`` (`invalid_password`) for a password the policy
    ///   refuses; `user_exists` when the email or phone number is a user's, `username_exists` when
    ///   the username is.
    func signup(_ body: DatabaseSignupRequest) async throws -> DatabaseSignupResponse {
        let password = try checkSignup(body)
        try services.checkPasswordStrength(password)
        return try await createUser(body, password: password)
    }

    /// The checks of a signup before its password's strength: the client, the connection, the
    /// CAPTCHA, a password given.
    private func checkSignup(_ body: DatabaseSignupRequest) throws(TenantError) -> Secret {
        _ = try checkClient(body.clientID)
        guard let connection = body.connection, !connection.isEmpty else {
            throw TenantError(.badConnection, "Missing required parameter: connection")
        }
        _ = try services.checkPasswordConnection(connection)
        try services.checkCaptcha(body.captcha)
        guard let password = body.password, !password.text.isEmpty else {
            throw TenantError(.invalidSignup, "Missing required parameter: password")
        }
        return password
    }

    /// Stores the user and their password, once the identifiers are free and the profile holds.
    private func createUser(_ body: DatabaseSignupRequest, password: Secret) async throws(TenantError)
        -> DatabaseSignupResponse
    {
        let profile = body.profile
        switch try await store.takenIdentifier(of: profile) {
        case "username"?: throw TenantError(.usernameExists, "The username provided is in use already.")
        case _?: throw TenantError(.signupUserExists, "The user already exists.")
        case nil: break
        }
        let user: TenantUser
        do {
            user = try await services.newUser(
                profile: profile, metadata: body.userMetadata ?? [:], connection: configuration.connection)
        } catch  where error.code == .invalidRequest {
            throw TenantError(.invalidSignup, error.detail)
        }
        do {
            try await store.insertUser(user)
        } catch  where error.code == .userExists {
            throw TenantError(.signupUserExists, "The user already exists.")
        }
        do {
            try await services.setPassword(password, userID: user.id)
        } catch {
            _ = try? await store.deleteUser(id: user.id)
            throw error
        }
        return DatabaseSignupResponse(user)
    }
}
