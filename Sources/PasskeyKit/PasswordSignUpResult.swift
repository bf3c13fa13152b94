public import Auth0Passkeys

/// What a password signup gives: the user the database connection created, and the session of
/// the login that followed.
public struct PasswordSignUpResult: Sendable {
    /// The user `/dbconnections/signup` answered (email, username, whether verified).
    public let created: DatabaseUser
    /// The user, from the login's ID token.
    public let user: UserInfo
    /// The tokens, kept as the user's session.
    public let credentials: Credentials
}
