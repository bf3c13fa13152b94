public import Auth0Passkeys

/// What a password login gives: the user and the session's credentials.
public struct PasswordLogInResult: Sendable {
    /// The user, from the ID token.
    public let user: UserInfo
    /// The tokens, kept as the user's session.
    public let credentials: Credentials
}
