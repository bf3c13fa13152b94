import FoundationEssentials
import WebAuthn

/// The database connection's passwords: the one check of a password login (the
/// password grants and the login page), the one way a password is set (signup, reset), and bot
/// detection.
extension TenantServices {
    /// The connection a password request names: the tenant's database connection, while it takes
    /// passwords.
    ///
    /// - Parameter connection: the request's `connection` or `realm`; nil for the default directory.
    /// - Throws: `bad.connection` when the connection is another or takes no passwords.
    func checkPasswordConnection(_ connection: String?) throws(TenantError) -> String {
        guard configuration.databaseConnection.passwordsEnabled else {
            throw TenantError(.badConnection, "The connection does not take passwords.")
        }
        guard let connection, connection != configuration.connection else { return configuration.connection }
        throw TenantError(.badConnection, "Connection not found: \(connection.prefix(64))")
    }

    /// Refuses a request without the CAPTCHA answer while bot detection is on, as Auth0 signals
    /// it (`requires_verification`, Auth0.swift's `isVerificationRequired`).
    ///
    /// - Throws: `requires_verification` (400) for a missing or wrong answer.
    func checkCaptcha(_ answer: Secret?) throws(TenantError) {
        let options = configuration.databaseConnection
        guard options.botDetection == .always else { return }
        guard let expected = options.captchaAnswer, let answer,
            constantTimeEquals(answer.digest, expected.digest)
        else {
            throw Self.verificationRequired
        }
    }

    /// The database connection's user an identifier names: by email, else by username, without
    /// regard to case. An upstream connection's user (whose email is only in the profile) is not one.
    func databaseUser(_ identifier: String) async throws(TenantError) -> TenantUser? {
        let filter = identifier.contains("@") ? UserFilter(email: identifier) : UserFilter(username: identifier)
        let found = try await store.users(filter, offset: 0, limit: 2, counting: false).users
        if let user = found.first(where: { $0.identity == nil }) { return user }
        // A username may hold `@` (UserProfile's rule): try it as one.
        guard identifier.contains("@") else { return nil }
        return try await store.users(UserFilter(username: identifier), offset: 0, limit: 2, counting: false).users
            .first { $0.identity == nil }
    }

    /// Verifies a password login: the user by email or username, their stored hash, under the
    /// user's lockout (``AttemptLimiter``). An unknown user, a user with no password (passkey
    /// only) and a wrong password get the same answer, after the same work (a hash is computed
    /// either way), so the answer tells no account apart.
    ///
    /// - Returns: the user.
    /// - Throws: `invalid_grant` (403) `Wrong email or password.`; `too_many_attempts` (429) for a
    ///   locked-out user.
    func verifiedPasswordLogin(_ identifier: String, password: Secret) async throws(TenantError) -> TenantUser {
        let user = try await databaseUser(identifier)
        let keys: [AttemptLimiter.Key] = user.map { [.user($0.id)] } ?? []
        try await checkAttempts(keys)
        return try await counting(keys) { () async throws(TenantError) -> TenantUser in
            var stored: StoredPassword?
            if let user {
                stored = try await store.peek(StoredPassword.self, key: StoredPassword.key(user.id), at: clock.now())
            }
            guard let user, let stored else {
                _ = try await PasswordHash.make(password, logN: configuration.databaseConnection.passwordHashLogN)
                throw Self.wrongPassword
            }
            guard try await stored.hash.verifies(password) else { throw Self.wrongPassword }
            return user
        }
    }

    /// Refuses a password the connection's policy does not admit.
    ///
    /// - Throws: ``PasswordStrengthError``.
    func checkPasswordStrength(_ password: Secret) throws(PasswordStrengthError) {
        let policy = configuration.databaseConnection.passwordPolicy
        guard policy.admits(password.text) else {
            throw PasswordStrengthError(policy: policy, rules: policy.rules(for: password.text))
        }
    }

    /// Sets `userID`'s password: hashes it and stores it over the one there, if any.
    func setPassword(_ password: Secret, userID: String) async throws(TenantError) {
        let record = StoredPassword(
            hash: try await PasswordHash.make(password, logN: configuration.databaseConnection.passwordHashLogN))
        let key = StoredPassword.key(userID)
        if try await store.update(StoredPassword.self, key: key, at: clock.now(), { $0 = record }) != nil { return }
        if try await store.insert(record, key: key) { return }
        // Another request stored one between the two statements: this one is the newer.
        _ = try await store.update(StoredPassword.self, key: key, at: clock.now()) { $0 = record }
    }

    /// Auth0's answer to a wrong email, username or password (Auth0.swift's `isInvalidCredentials`).
    static let wrongPassword = TenantError(.invalidGrant, status: 403, "Wrong email or password.")

    /// Auth0's answer when bot detection wants a CAPTCHA the request did not answer.
    static let verificationRequired = TenantError(
        .requiresVerification, "Suspicious request requires verification")
}

extension TenantError.Code {
    /// Bot detection wants a CAPTCHA answer (Auth0.swift's `isVerificationRequired`).
    public static let requiresVerification = Self(rawValue: "requires_verification")
    /// `/dbconnections/*` and `/passwordless/start`: the connection is missing, unknown, or (for
    /// `/dbconnections/*`) takes no passwords.
    public static let badConnection = Self(rawValue: "bad.connection")
    /// `/dbconnections/signup`: the body lacks what a signup needs or has it malformed.
    public static let invalidSignup = Self(rawValue: "invalid_signup")
    /// `/dbconnections/signup`: the email (or phone number) belongs to a user already.
    public static let signupUserExists = Self(rawValue: "user_exists")
    /// `/dbconnections/signup`: the username belongs to a user already.
    public static let usernameExists = Self(rawValue: "username_exists")
}
