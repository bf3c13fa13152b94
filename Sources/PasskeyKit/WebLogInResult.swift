public import Auth0Passkeys

/// What a Web Auth login gives: the user and the session's credentials, whose ID token passed
/// validation (auth0-passkey-api.md §14.5).
public struct WebLogInResult: Sendable {
    /// The user, from the validated ID token.
    public let user: UserInfo
    /// The tokens, kept as the user's session.
    public let credentials: Credentials
}
